// Errors name the culprit, in one line, through the real binary: a compaction fault that stops the run,
// a budget fault outside any compaction, a failing system_prompt hook (a worker error that leaves every
// saved session loadable), and a before_compact_commit module that breaks the candidate (named among
// the modules of the commit pipeline).
import { afterEach, expect, test } from "bun:test";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MockStep, RecordedRequest } from "../fixtures/mock-server/index.ts";
import { BUN } from "../worker/helpers.ts";
import { makeRig, type Rig } from "./rig.ts";

const FIXTURES = join(import.meta.dirname, "..", "compaction", "fixtures");
const BROKEN_MEMORY = join(import.meta.dirname, "fixtures", "broken-memory.ts");

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function bind(r: Rig, bindings: Record<string, string[]>): void {
  const file = Object.fromEntries(Object.entries(bindings).map(([m, exec]) => [m, { exec: [BUN, ...exec] }]));
  writeFileSync(join(r.configDir, "bindings.json"), JSON.stringify(file));
}

const lines = (s: string) => s.split("\n").filter((l) => l.trim() !== "");
const isSummary = (req: RecordedRequest) => ((req.body as { tools?: unknown[] }).tools ?? []).length === 0;

test("a compaction fault that stops the run is one line", async () => {
  rig = await makeRig({ script: [{ text: "never" }], contextWindow: 4000, profile: "compact" });
  bind(rig, { compact: [join(FIXTURES, "fixture-compactor.ts"), "--cut", "1"] });
  const r = await rig.run(["-p", `please ${"read this ".repeat(2000)}`]);
  expect(r.code).toBe(1);
  expect(lines(r.stderr)).toHaveLength(1);
  expect(r.stderr).toContain("context budget exceeded");
  expect(r.stderr).toContain("compaction failed at compact_plan: the compactor returned cut 1");
  expect(rig.mock.requests.length).toBe(0);
});

test("a budget fault is one line and does not claim a compaction failed", async () => {
  rig = await makeRig({ script: [{ text: "never" }], profile: "compact" });
  bind(rig, { budget: [join(FIXTURES, "leaky-budget.ts"), "--error"] });
  const r = await rig.run(["-p", "hello"]);
  expect(r.code).toBe(1);
  expect(lines(r.stderr)).toHaveLength(1);
  expect(r.stderr).toContain(
    'i: the budget check before the model request failed: worker "budget" failed on event "budget"',
  );
  expect(r.stderr).toContain("budget exploded");
  expect(r.stderr).not.toContain("compaction");
});

test("a system_prompt fault is the worker's error and leaves no unloadable session", async () => {
  rig = await makeRig({ script: [{ text: "hi there" }] });
  bind(rig, { memory: [BROKEN_MEMORY, "--fail-system-prompt"] });
  const r = await rig.run(["-p", "hello"]);
  expect(r.code).toBe(1);
  expect(lines(r.stderr)).toHaveLength(1);
  expect(r.stderr).toMatch(
    /^i: worker "memory" failed on event "system_prompt": .*the notes store is unreadable/,
  );
  expect(r.stderr).not.toContain("internal error");
  // Every session directory left behind can be loaded (none was half made).
  const dirs = existsSync(rig.dataDir) ? readdirSync(rig.dataDir) : [];
  for (const d of dirs) expect(existsSync(join(rig.dataDir, d, "history.json"))).toBe(true);
  // With the worker fixed the next run works, and -c resumes it.
  rmSync(join(rig.configDir, "bindings.json"));
  const ok = await rig.run(["-p", "hello"]);
  expect(ok.code).toBe(0);
  expect(ok.stdout.trim()).toBe("hi there");
}, 20_000);

test("a before_compact_commit module that breaks the candidate is named (memory, after compact)", async () => {
  const script = (req: RecordedRequest): MockStep =>
    isSummary(req) ? { text: "## Goal\nSay hello." } : { text: "hello back" };
  rig = await makeRig({ script });
  for (const [i, args] of [
    ["-p", "one"],
    ["-p", "two", "-c"],
    ["-p", "three", "-c"],
  ].entries()) {
    const r = await rig.run(args);
    expect(`${i}: ${r.stderr}`).toBe(`${i}: `);
  }
  bind(rig, { memory: [BROKEN_MEMORY, "--break-candidate"] });
  const r = await rig.run(["compact"]);
  expect(r.code).not.toBe(0);
  expect(lines(r.stderr)).toHaveLength(1);
  expect(r.stderr).toContain(
    'compaction failed at before_compact_commit: worker "memory" failed on event "before_compact_commit": the candidate history is invalid: history[1]',
  );
  expect(r.stderr).toContain("nothing was committed");
}, 30_000);
