// The agent under failure: 429 then success, a 401, cancellation with Ctrl-C, kill -9 mid-session then
// resume, and bad input (malformed session, unknown model, missing key) — one clear line each.

import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { INTERRUPTED_MARKER } from "../../src/agent/interrupt.ts";
import { History } from "../../src/contract/history.ts";
import { validateHistory } from "../../src/lib/validate-history.ts";
import { Session } from "../../src/session/session.ts";
import { runCliAsync, savedSessionIds } from "../helpers/cli.ts";
import { events, makeRig, type Rig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function onlySession(r: Rig): string {
  const ids = savedSessionIds(r.dataDir);
  expect(ids).toHaveLength(1);
  return ids[0] as string;
}

function savedHistory(r: Rig, id: string): History {
  return History.parse(JSON.parse(readFileSync(join(r.dataDir, id, "history.json"), "utf8")));
}

async function waitFor(cond: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("provider failures", () => {
  test("429 with retry-after, then success", async () => {
    rig = await makeRig({ script: [{ error: "rate_limit", retry_after: 0.05 }, { text: "made it" }] });
    const r = await rig.run(["-p", "hi", "--json"]);
    expect(r.code).toBe(0);
    const evs = events(r.stdout);
    expect(evs.some((e) => e.type === "retry")).toBe(true);
    expect(evs.at(-1)).toMatchObject({ type: "done", text: "made it" });
    expect(rig.mock.requests).toHaveLength(2);
  });

  for (const provider of ["openai", "anthropic"] as const) {
    test(`401 names provider, model and status, never the key (${provider})`, async () => {
      rig = await makeRig({ script: [{ error: "auth" }], provider });
      const r = await rig.run(["-p", "hi"]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      const line = r.stderr.trim();
      expect(line.split("\n")).toHaveLength(1);
      expect(line).toContain(provider);
      expect(line).toContain("mock-model");
      expect(line).toContain("401");
      expect(line).not.toContain("sk-test-key");
    });
  }
});

describe("interruption", () => {
  test("Ctrl-C cancels the in-flight request and leaves a valid, resumable history", async () => {
    rig = await makeRig({
      script: [
        { tool_calls: [{ name: "bash", arguments: { command: "echo step-one" } }] },
        { text: "this reply streams slowly and never finishes", chunk_delay_ms: 50, hang: true },
        { text: "resumed fine" },
      ],
    });
    const running = rig.start(["-p", "do it", "--approve", "all", "--json"]);
    let out = "";
    running.child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    await waitFor(() => out.includes('"text_delta"'));
    running.child.kill("SIGINT");
    const r = await running.done;
    expect(r.code).toBe(130);
    const id = onlySession(rig);
    const h = savedHistory(rig, id);
    expect(validateHistory(h)).toBeUndefined();
    // the partial reply the user saw is kept, marked, and followed by the interrupted marker
    expect(h.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "user"]);
    expect(String(h[4]?.content)).toStartWith("this r");
    expect(String(h[4]?.content)).toContain("[reply cut off here: the user interrupted it]");
    expect(h[5]).toMatchObject({ role: "user", content: INTERRUPTED_MARKER, meta: { interrupted: true } });
    const again = await rig.run(["-p", "go on", "-r", id]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("resumed fine\n");
    // the model sees the marker before the new message
    const sent = JSON.stringify(rig.mock.requests.at(-1)?.body);
    expect(sent.indexOf("interrupted by the user")).toBeLessThan(sent.indexOf("go on"));
  });

  test("kill -9 mid-session, then resume: nothing completed is lost", async () => {
    rig = await makeRig({
      script: [
        { tool_calls: [{ name: "write", arguments: { path: "a.txt", content: "A" } }] },
        { tool_calls: [{ name: "bash", arguments: { command: "sleep 8" } }] },
        { text: "after the crash" },
      ],
    });
    const running = rig.start(["-p", "two steps", "--approve", "all"]);
    await waitFor(() => rig !== undefined && rig.mock.requests.length >= 2);
    // the second request was answered with a long bash call: the process is inside the tool now
    await new Promise((r) => setTimeout(r, 300));
    running.child.kill("SIGKILL");
    await running.done;
    const id = onlySession(rig);
    // What the user sees of the killed session: `i sessions` counts the first tool batch (checkpointed
    // in events.jsonl) and not the unfinished one; history.json, a cache the run had not refreshed yet,
    // may lag the log but never holds more than it.
    const listing = await runCliAsync(["sessions", "--workspace", rig.workspace], rig.env);
    expect(listing.code).toBe(0);
    expect(listing.stdout).toMatch(new RegExp(`^${id}\\s+\\S+ \\S+\\s+4\\s+0\\s+two steps$`, "m"));
    const h = Session.open(rig.dataDir, id).history();
    expect(validateHistory(h)).toBeUndefined();
    expect(h.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(JSON.stringify(h)).toContain("two steps");
    const cached = savedHistory(rig, id);
    expect(h.slice(0, cached.length)).toEqual(cached);
    const again = await rig.run(["-p", "continue", "-c"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("after the crash\n");
    const resumed = savedHistory(rig, id);
    expect(validateHistory(resumed)).toBeUndefined();
    expect(resumed.at(-1)?.content).toBe("after the crash");
  });
});

describe("one writer per session", () => {
  test("a second i on a session in use is refused with one line; the lock is released after", async () => {
    rig = await makeRig({
      script: [{ text: "slow", chunk_delay_ms: 200, hang: true }, { text: "second run ok" }],
    });
    const first = rig.start(["-p", "hold the session"]);
    await waitFor(() => rig !== undefined && rig.mock.requests.length >= 1);
    const second = await rig.run(["-p", "me too", "-c"]);
    expect(second.code).toBe(2);
    expect(second.stderr.trim().split("\n")).toHaveLength(1);
    expect(second.stderr).toMatch(/session \S+ is in use by another i process \(pid \d+\)/);
    first.child.kill("SIGINT");
    expect((await first.done).code).toBe(130);
    const third = await rig.run(["-p", "now me", "-c"]);
    expect(third.code).toBe(0);
    expect(third.stdout).toBe("second run ok\n");
  });
});

describe("bad input", () => {
  test("malformed session file: one line naming the file, exit 2", async () => {
    rig = await makeRig({ script: [{ text: "ok" }] });
    await rig.run(["-p", "hello"]);
    const id = onlySession(rig);
    writeFileSync(join(rig.dataDir, id, "history.json"), "{ broken");
    const r = await rig.run(["-p", "again", "-r", id]);
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(join(id, "history.json"));
  });

  test("unknown model with no table entry says how to set its context window", async () => {
    rig = await makeRig({ script: [] });
    const r = await runCliAsync(
      ["-p", "hi", "-m", "totally-unknown-model", "--base-url", rig.mock.url, "--workspace", rig.workspace],
      rig.env,
    );
    expect(r.code).toBe(2);
    const line = r.stderr.trim();
    expect(line.split("\n")).toHaveLength(1);
    expect(line).toContain('unknown model "totally-unknown-model"');
    expect(line).toContain("context_window");
    expect(line).toContain("config.json");
    expect(rig.mock.requests).toHaveLength(0);
  });

  test("budget.json reserve_tokens that fills the window: one line at start, exit 2, no request", async () => {
    rig = await makeRig({ script: [], contextWindow: 8000 });
    writeFileSync(join(rig.configDir, "budget.json"), JSON.stringify({ reserve_tokens: 8000 }));
    const r = await rig.run(["-p", "hi"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("budget.json: field reserve_tokens: 8000 leaves no room");
    expect(rig.mock.requests).toHaveLength(0);
  });

  test("missing key: one line naming the variables, exit 2, no request", async () => {
    rig = await makeRig({ script: [] });
    const env = { ...rig.env, OPENAI_API_KEY: "", I_API_KEY: "", ANTHROPIC_API_KEY: "" };
    const r = await runCliAsync(
      [
        "-p",
        "hi",
        "-m",
        "gpt-4.1",
        "--base-url",
        "https://api.example.invalid/v1",
        "--workspace",
        rig.workspace,
      ],
      env,
    );
    expect(r.code).toBe(2);
    const line = r.stderr.trim();
    expect(line.split("\n")).toHaveLength(1);
    expect(line).toContain("OPENAI_API_KEY");
    expect(rig.mock.requests).toHaveLength(0);
  });
});
