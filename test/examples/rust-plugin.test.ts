// The Rust example worker (examples/rust-plugin), built with cargo exactly as its README says and bound the
// way a user binds it: bindings.json → the manifest the CLI generates → a whole print session against the
// mock model that has to compact. Also its protocol edges, spoken to the binary directly.
import { beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { History } from "../../src/contract/history.ts";
import { MODULES } from "../../src/contract/registry.ts";
import { validateHistory } from "../../src/lib/validate-history.ts";
import { events, makeRig } from "../agent/rig.ts";
import type { MockStep, RecordedRequest } from "../fixtures/mock-server/index.ts";
import { ROOT, runCli, savedSessionIds } from "../helpers/cli.ts";

const CRATE = join(ROOT, "examples", "rust-plugin");
const BIN = join(CRATE, "target", "release", `i-plugin-example${process.platform === "win32" ? ".exe" : ""}`);
const NOTES_HEADER = "Extractive notes (i-plugin-example";
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

beforeAll(() => {
  // CI builds it first (.ci/run); cargo only relinks when a source changed, so this is cheap then.
  const r = spawnSync(
    "cargo",
    ["build", "--release", "--locked", "--offline", "--manifest-path", join(CRATE, "Cargo.toml")],
    { cwd: ROOT, encoding: "utf8" },
  );
  if (r.error) throw new Error(`cargo is needed to build examples/rust-plugin: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`cargo build failed:\n${r.stderr}`);
  if (!existsSync(BIN)) throw new Error(`cargo build did not produce ${BIN}`);
}, 300_000);

type Reply = { id: number | null; data?: Record<string, unknown>; error?: string };

/** Send raw lines to `i-plugin-example ARGS` and read one reply per line back. */
function talk(lines: string[], args = ["--compact"]): { replies: Reply[]; code: number | null } {
  const r = spawnSync(BIN, args, { input: lines.map((l) => `${l}\n`).join(""), encoding: "utf8" });
  const replies = r.stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Reply);
  return { replies, code: r.status };
}

function request(id: number, event: string, data: Record<string, unknown>): string {
  return JSON.stringify({ id, event, workspace: "/tmp/ws", data });
}

const hello = request(0, "hello", { protocol: 1, module: "compact" });

describe("the Rust example bound through bindings.json", () => {
  test("a print session compacts locally: no summary request, the next request is made, history committed", async () => {
    const toolTurns = 14;
    let turns = 0;
    const summaryRequests: RecordedRequest[] = [];
    const afterCompaction: RecordedRequest[] = [];
    const script = (req: RecordedRequest): MockStep => {
      const body = req.body as { tools?: unknown[] };
      if (!body.tools || body.tools.length === 0) summaryRequests.push(req);
      if (JSON.stringify(body).includes(NOTES_HEADER)) afterCompaction.push(req);
      if (turns < toolTurns) {
        turns++;
        return {
          tool_calls: [{ name: "bash", arguments: { command: `seq 1 200 | sed 's/^/row ${turns} 日本 /'` } }],
        };
      }
      return { text: "all rows listed" };
    };
    const rig = await makeRig({ script, contextWindow: 12_000, profile: "compact" });
    try {
      const exec = [BIN, "--compact"];
      writeFileSync(join(rig.configDir, "bindings.json"), JSON.stringify({ compact: { exec } }));
      const manifest = runCli(["--runtime", "manifest", "compact"], rig.env);
      expect(manifest.stderr).toBe("");
      const m = JSON.parse(manifest.stdout) as { hooks: Record<string, { exec: string[] }[]> };
      for (const hook of MODULES.compact.hooks) expect(m.hooks[hook]?.map((e) => e.exec)).toEqual([exec]);

      const r = await rig.run(["-p", "list rows many times", "--approve", "all", "--json"]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      const evs = events(r.stdout);
      expect(evs.at(-1)).toMatchObject({ type: "done", text: "all rows listed" });
      const done = evs.filter((e) => e.type === "compaction" && e.phase === "done");
      expect(done.length).toBeGreaterThanOrEqual(1);
      for (const e of done) expect(e).toMatchObject({ route: "local" });
      expect(evs.some((e) => e.type === "compaction" && e.phase === "failed")).toBe(false);
      // Local compaction skips the summary request, not the next normal agent request.
      expect(summaryRequests).toHaveLength(0);
      expect(afterCompaction.length).toBeGreaterThanOrEqual(1);
      expect(rig.mock.requests).toHaveLength(toolTurns + 1);

      const [id] = savedSessionIds(rig.dataDir);
      const dir = join(rig.dataDir, id as string);
      const history = History.parse(JSON.parse(readFileSync(join(dir, "history.json"), "utf8")));
      expect(validateHistory(history)).toBeUndefined();
      expect(history[1]?.meta?.summary).toBe(true);
      expect(JSON.stringify(history[1]?.content)).toContain(NOTES_HEADER);
      const pre = History.parse(JSON.parse(readFileSync(join(dir, ".precompact.json"), "utf8")));
      expect(validateHistory(pre)).toBeUndefined();
      expect(pre.length).toBeGreaterThan(history.length - 1);
      const log = readFileSync(join(dir, "events.jsonl"), "utf8");
      expect(log).toContain(`compact (${BIN})`);
    } finally {
      await rig.close();
    }
  }, 120_000);
});

describe("the Rust example's protocol", () => {
  test("hello declares exactly the compact module's hooks and no tools", () => {
    const { replies, code } = talk([hello]);
    expect(code).toBe(0);
    expect(replies[0]).toEqual({
      id: 0,
      data: { protocol: 1, module: "compact", hooks: [...MODULES.compact.hooks], tools: [] },
    });
    expect(MODULES.compact.tools).toHaveLength(0);
    expect(talk([request(1, "hello", { protocol: 1, module: "memory" })]).replies[0]?.error).toContain(
      'serves module "compact"',
    );
  });

  test("a malformed line gets an error reply and the worker keeps serving", () => {
    const { replies, code } = talk([
      "{not json",
      '{"id":4,"event":"compact_plan","data":[]}',
      "[]",
      request(5, "checkpoint", { keep: { nested: [1, 2.5, "é"] } }),
    ]);
    expect(code).toBe(0);
    expect(replies).toHaveLength(4);
    expect(replies[0]).toMatchObject({ id: null });
    expect(replies[0]?.error).toStartWith("malformed request: not JSON");
    expect(replies[1]).toMatchObject({ id: 4 });
    expect(replies[1]?.error).toContain('"data" is not an object');
    expect(replies[2]?.error).toContain("not a JSON object");
    // An event it does not handle comes back unchanged.
    expect(replies[3]).toEqual({ id: 5, data: { keep: { nested: [1, 2.5, "é"] } } });
  });

  test("compact_plan cuts at a turn boundary, never inside a tool batch, keeping the recent messages", () => {
    const call = (id: string) => ({ id, name: "read", arguments: `{"path":"f${id}"}` });
    const history = [
      { role: "system", content: "s" },
      { role: "user", content: "first" },
      { role: "assistant", content: "ok" },
      { role: "user", content: "read both" },
      { role: "assistant", content: "", tool_calls: [call("1"), call("2")] },
      { role: "tool", tool_call_id: "1", content: "a" },
      { role: "tool", tool_call_id: "2", content: "b" },
      { role: "assistant", content: "done" },
    ];
    const plan = (data: Record<string, unknown>, args = ["--compact", "--keep", "3"]) =>
      talk([request(1, "compact_plan", { history, cut: null, state: null, other: 7, ...data })], args)
        .replies[0];
    // keep 3 would start in the tool batch (index 5): the cut walks back to the batch's assistant message.
    const forced = plan({ force: true });
    expect(forced?.data).toMatchObject({ cut: 4, other: 7, state: { by: "i-plugin-example", keep: 3 } });
    expect(plan({ force: false, budget: { recommendation: "compact" } })?.data?.cut).toBe(4);
    expect(plan({ force: false, budget: { recommendation: "none" } })?.data?.cut).toBeNull();
    // Keeping 7 of 8 leaves only index 1, and the cut must be at least 2: declined, with a reason.
    const declined = plan({ force: true }, ["--compact", "--keep", "7"]);
    expect(declined?.data?.cut).toBeNull();
    expect(declined?.data?.decline_reason).toContain("7 most recent");
  });

  test("notes are local, capped at 2048 UTF-8 bytes on a character boundary, without images or adapter state", () => {
    const messages = [
      {
        role: "user",
        content: [
          { type: "text", text: "look at the screenshot" },
          { type: "image", media_type: "image/png", data: PNG },
        ],
      },
      { role: "assistant", content: "thinking", adapter: { encrypted_reasoning: "PRIVATE-ADAPTER-STATE" } },
      ...Array.from({ length: 200 }, (_, i) => ({
        role: "user",
        content: `要求 ${i}: ${"日本語".repeat(60)}`,
      })),
    ];
    const { replies } = talk([
      request(1, "before_compact", { messages, cut: 203, state: null, retained_images: [] }),
      request(2, "after_compact", { summary: `  ${"é".repeat(3000)}  `, state: null }),
      request(3, "after_compact", { summary: "   ", state: null }),
    ]);
    const summary = replies[0]?.data?.summary as string;
    expect(summary).toStartWith(NOTES_HEADER);
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(2048);
    expect(Buffer.byteLength(summary)).toBeGreaterThan(2048 - 4);
    expect(summary).not.toContain("\uFFFD");
    expect(summary.includes("PRIVATE-ADAPTER-STATE")).toBe(false);
    expect(summary.includes(PNG.slice(0, 40))).toBe(false);
    expect(replies[0]?.data?.retained_images).toBeUndefined();
    const post = replies[1]?.data?.summary as string;
    expect(Buffer.byteLength(post)).toBe(2048);
    expect(post).toBe("é".repeat(1024));
    expect(replies[2]?.error).toContain("empty");
  });

  test("before_compact_commit drops image parts from the summary message only", () => {
    const image = { type: "image", media_type: "image/png", data: PNG };
    const candidate = [
      { role: "system", content: "s" },
      { role: "user", content: [{ type: "text", text: "notes" }, image], meta: { summary: true } },
      { role: "user", content: [{ type: "text", text: "recent" }, image] },
    ];
    const { replies } = talk([request(1, "before_compact_commit", { candidate, cut: 5, state: null })]);
    const out = replies[0]?.data?.candidate as typeof candidate;
    expect(out[1]?.content).toEqual([{ type: "text", text: "notes" }]);
    expect(out[2]).toEqual(candidate[2] as (typeof candidate)[number]);
  });

  test("bad arguments are one line and exit 2", () => {
    for (const args of [[], ["--compact", "--bogus"], ["--compact", "--keep", "0"]]) {
      const r = spawnSync(BIN, args, { input: "", encoding: "utf8" });
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toStartWith("i-plugin-example: ");
    }
  });
});
