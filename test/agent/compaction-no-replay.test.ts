// Through the real binary, with a replacement compactor: a blank summary from its after_compact is a
// failure naming the step (never committed, never a fallback), and a compaction that fails re-runs no
// tool — not in the run that failed, not in the run that resumes the session.
import { afterEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Session } from "../../src/session/session.ts";
import { BUN } from "../worker/helpers.ts";
import { makeRig, type Rig } from "./rig.ts";

const COMPACTOR = join(import.meta.dirname, "..", "compaction", "fixtures", "fixture-compactor.ts");

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function bindCompactor(r: Rig, ...args: string[]): void {
  writeFileSync(
    join(r.configDir, "bindings.json"),
    JSON.stringify({ compact: { exec: [BUN, COMPACTOR, ...args] } }),
  );
}

const lines = (s: string) => s.split("\n").filter((l) => l.trim() !== "");

test("a blank after_compact summary from a replacement fails the compaction at after_compact; nothing committed", async () => {
  rig = await makeRig({
    script: [{ text: "hi" }, { text: "never" }],
    contextWindow: 4000,
    profile: "compact",
  });
  bindCompactor(rig, "--after-blank", "--cut", "2");
  expect((await rig.run(["-p", "hello"])).code).toBe(0);
  const r = await rig.run(["-p", `please ${"read this ".repeat(2000)}`, "-c"]);
  expect(r.code).toBe(1);
  expect(lines(r.stderr)).toHaveLength(1);
  expect(r.stderr).toMatch(/compaction failed at after_compact: .*summary.*nonempty string/);
  // No fallback to a model summary, and no request over the budget.
  expect(rig.mock.requests.length).toBe(1);
  expect(
    Session.newest(rig.dataDir, rig.workspace)
      ?.history()
      .map((m) => m.role),
  ).toEqual(["system", "user", "assistant", "user"]);
});

test("a compaction that fails re-runs no tool, in that run or in the one that resumes the session", async () => {
  const counter = "runs.txt";
  // Four results, each as large as a result may be for this window: together over the hard limit.
  const call = (label: string) => ({
    name: "bash",
    arguments: { command: `echo ${label} >> ${counter}; seq 100000 102500` },
  });
  rig = await makeRig({
    script: [
      { tool_calls: [call("a"), call("b"), call("c"), call("d")] },
      { text: "never reached: the compaction before this request fails" },
    ],
    contextWindow: 4000,
    profile: "compact",
  });
  bindCompactor(rig, "--crash", "after_compact", "--cut", "2");
  const r = await rig.run(["-p", "run it once", "--approve", "all"]);
  expect(r.stderr).toContain("compaction failed at after_compact");
  const runs = () =>
    readFileSync(join(rig?.workspace as string, counter), "utf8")
      .split("\n")
      .sort()
      .join(" ");
  expect(runs()).toBe(" a b c d");
  // The saved session holds each tool's one result; resuming it runs none of them again.
  const history = Session.newest(rig.dataDir, rig.workspace)?.history() ?? [];
  expect(history.filter((m) => m.role === "tool")).toHaveLength(4);
  const again = await rig.run(["-p", "go on", "-c", "--approve", "all"]);
  expect(again.stderr).not.toContain("internal error");
  expect(runs()).toBe(" a b c d");
  expect(
    Session.newest(rig.dataDir, rig.workspace)
      ?.history()
      .filter((m) => m.role === "tool"),
  ).toHaveLength(4);
});
