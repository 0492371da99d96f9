// End to end through the real CLI, worker processes and the mock model with `--provider responses`: a tool
// loop with read and bash, encrypted reasoning carried from reply to request (and across a resume), the
// missing-module error, auth and overflow failures, and a long session that compacts through the same wire.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { History } from "../../src/contract/history.ts";
import { validateHistory } from "../../src/lib/validate-history.ts";
import type { MockStep, RecordedRequest } from "../fixtures/mock-server/index.ts";
import { savedSessionIds } from "../helpers/cli.ts";
import { events, expectCompactedRun, makeRig, type Rig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

type Item = Record<string, unknown> & { type: string };

const MODEL = "gpt-5-mini";

function inputOf(req: RecordedRequest | undefined): Item[] {
  return (req?.body as { input?: Item[] } | undefined)?.input ?? [];
}

function sessionIds(r: Rig): string[] {
  return savedSessionIds(r.dataDir);
}

function savedHistory(r: Rig): History {
  const [id] = sessionIds(r);
  return History.parse(JSON.parse(readFileSync(join(r.dataDir, id as string, "history.json"), "utf8")));
}

const isSummaryRequest = (req: RecordedRequest) => {
  const body = req.body as { tools?: unknown[] };
  return !body.tools || body.tools.length === 0;
};

describe("--provider responses", () => {
  test("tool loop with read and bash; tool results go back as function_call_output; reasoning round trip", async () => {
    rig = await makeRig({
      provider: "responses",
      model: MODEL,
      files: { "notes.txt": "the password is swordfish\n" },
      script: [
        {
          reasoning: "Read the notes first.",
          tool_calls: [{ name: "read", arguments: { path: "notes.txt" } }],
        },
        {
          reasoning: "Confirm with a shell command.",
          text: "Checking with bash.",
          tool_calls: [{ name: "bash", arguments: { command: "wc -l < notes.txt && echo from-bash" } }],
        },
        { text: "The notes hold a password." },
        { text: "Still swordfish." },
      ],
    });
    const r = await rig.run(["-p", "what is in notes.txt?", "--profile", "full", "--approve", "all"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("The notes hold a password.\n");
    const reqs = rig.mock.requests;
    expect(reqs).toHaveLength(3);
    expect(reqs.every((q) => q.path === "/v1/responses" && q.format === "responses")).toBe(true);

    // Request 2 answers the read call with its output, under the call's id.
    const second = inputOf(reqs[1]);
    const readCall = second.find((i) => i.type === "function_call" && i.name === "read");
    const readOut = second.find((i) => i.type === "function_call_output");
    expect(readCall?.call_id).toBe("call_mock_0_0");
    expect(readOut).toMatchObject({ call_id: "call_mock_0_0", output: expect.stringContaining("swordfish") });
    const third = inputOf(reqs[2]);
    const outputs = third.filter((i) => i.type === "function_call_output");
    expect(outputs.map((o) => o.call_id)).toEqual(["call_mock_0_0", "call_mock_1_0"]);
    expect(String(outputs[1]?.output)).toContain("from-bash");

    // The encrypted reasoning stored from reply 1 is sent back verbatim, in place, in requests 2 and 3.
    const history = savedHistory(rig);
    expect(validateHistory(history)).toBeUndefined();
    const stored = history
      .filter((m) => m.role === "assistant")
      .map((m) => (m.adapter?.responses as { items: Item[] } | undefined)?.items ?? []);
    const reasoning1 = stored[0]?.find((i) => i.type === "reasoning");
    expect(reasoning1?.encrypted_content).toEqual(expect.any(String));
    expect(second.filter((i) => i.type === "reasoning")).toEqual([reasoning1 as Item]);
    expect(second.map((i) => i.type)).toEqual([
      "message",
      "reasoning",
      "function_call",
      "function_call_output",
    ]);
    const reasoning2 = stored[1]?.find((i) => i.type === "reasoning");
    expect(third.filter((i) => i.type === "reasoning")).toEqual([reasoning1 as Item, reasoning2 as Item]);
    for (const body of reqs.map((q) => q.body as Record<string, unknown>)) {
      expect(body).toMatchObject({ stream: true, store: false, include: ["reasoning.encrypted_content"] });
      expect(String(body.instructions)).toContain("coding agent");
    }

    // A resumed session replays the saved reasoning too: the state lives in history.json.
    const again = await rig.run(["-p", "and now?", "-c", "--profile", "full"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("Still swordfish.\n");
    expect(inputOf(rig.mock.requests[3]).filter((i) => i.type === "reasoning")).toEqual([
      reasoning1 as Item,
      reasoning2 as Item,
    ]);
  });

  test("without the responses module: one line, exit 2, no HTTP, no session", async () => {
    rig = await makeRig({ provider: "responses", model: MODEL, script: [{ text: "never" }] });
    const r = await rig.run(["-p", "hi", "--profile", "standard"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "i: --provider responses needs the responses module: use --profile full, responses-compact or responses-budget\n",
    );
    expect(rig.mock.requests).toHaveLength(0);
    expect(sessionIds(rig)).toEqual([]);
  });

  test("401: a clear auth error naming the key's places, exit 1, session kept", async () => {
    rig = await makeRig({ provider: "responses", model: MODEL, script: [{ error: "auth" }] });
    const r = await rig.run(["-p", "hi", "--profile", "responses-budget"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`responses model "${MODEL}": HTTP 401`);
    expect(r.stderr).toContain("OPENAI_API_KEY");
    expect(r.stderr).not.toContain(rig.env.OPENAI_API_KEY as string);
    expect(r.stderr).toMatch(/session \S+ saved/);
    expect(rig.mock.requests).toHaveLength(1);
  });

  test("context overflow: compacted once through the Responses wire, then the request is retried", async () => {
    let turns = 0;
    let overflowed = false;
    const script = (req: RecordedRequest): MockStep => {
      if (isSummaryRequest(req)) return { text: "## Goal\nList files.\n## Progress\nSix listings done." };
      if (turns < 6) {
        turns++;
        return {
          reasoning: `turn ${turns}`,
          tool_calls: [{ name: "bash", arguments: { command: `echo listing ${turns}` } }],
        };
      }
      if (!overflowed) {
        overflowed = true;
        return { error: "overflow" };
      }
      return { text: "recovered" };
    };
    rig = await makeRig({ provider: "responses", model: MODEL, script });
    const r = await rig.run([
      "-p",
      "list things",
      "--profile",
      "responses-compact",
      "--approve",
      "all",
      "--json",
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const evs = events(r.stdout);
    expect(evs.at(-1)).toMatchObject({ type: "done", text: "recovered" });
    expect(evs.filter((e) => e.type === "compaction" && e.phase === "done")).toEqual([
      expect.objectContaining({ reason: "overflow", route: "model" }),
    ]);
    const reqs = rig.mock.requests;
    const summaries = reqs.filter(isSummaryRequest);
    expect(summaries).toHaveLength(1);
    const summary = summaries[0] as RecordedRequest;
    expect(summary.path).toBe("/v1/responses");
    expect(String((summary.body as { instructions?: string }).instructions)).toContain("handover summary");
    // The transcript is the summariser's only input, and private wire state never reaches it.
    const transcript = JSON.stringify(inputOf(summary));
    expect(transcript).toContain("listing 1");
    expect(transcript).not.toContain("encrypted_content");
    // The retried request starts from the summary, then the kept recent turns with their reasoning.
    const retried = inputOf(reqs.at(-1));
    expect(JSON.stringify(retried[0])).toContain("Six listings done.");
    expect(JSON.stringify(retried)).toContain("listing 6");
    expect(retried.some((i) => i.type === "reasoning")).toBe(true);
  });
});

test("a long session with --profile responses-compact and a small window compacts several times", async () => {
  const TOOL_TURNS = 40;
  let toolTurns = 0;
  let summaries = 0;
  const script = (req: RecordedRequest): MockStep => {
    if (isSummaryRequest(req)) {
      summaries++;
      return { text: `## Goal\nCount lines.\n## Progress\nSummary ${summaries}: ${toolTurns} commands run.` };
    }
    if (toolTurns < TOOL_TURNS) {
      toolTurns++;
      return {
        reasoning: `step ${toolTurns}`,
        tool_calls: [{ name: "bash", arguments: { command: `seq 1 150 | sed 's/^/row ${toolTurns} /'` } }],
      };
    }
    return { text: "all rows listed" };
  };
  rig = await makeRig({ provider: "responses", model: MODEL, script, contextWindow: 12_000 });
  const r = await rig.run([
    "-p",
    "list the rows many times",
    "--profile",
    "responses-compact",
    "--approve",
    "all",
    "--json",
    "--max-turns",
    "100",
  ]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expectCompactedRun(r.stdout, { finalText: "all rows listed", minCompactions: 2, summaries });
  // Every request, summaries included, went through the Responses wire.
  expect(rig.mock.requests.every((q) => q.path === "/v1/responses")).toBe(true);
  expect(rig.mock.requests.filter(isSummaryRequest)).toHaveLength(summaries);
  const history = savedHistory(rig);
  expect(validateHistory(history)).toBeUndefined();
  expect(history[1]?.meta?.summary).toBe(true);
}, 120_000);
