// A run-time tool's streamed progress becomes output lines: each new figure once, at most one line per
// interval with the latest figure winning, nothing after the call ended, other shapes ignored.
import { expect, test } from "bun:test";
import { progressLine, progressLines } from "../../src/agent/progress-lines.ts";
import type { ToolReport } from "../../src/tools/types.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function collect() {
  const out: string[] = [];
  const report = (r: ToolReport) => {
    if (r.kind === "output") out.push(r.text);
  };
  return { out, report };
}

test("a figure is a line: with its total and message when given", () => {
  expect(progressLine({ progress: 3, total: 5, message: "copying" })).toBe("progress 3/5: copying");
  expect(progressLine({ progress: 0.5 })).toBe("progress 0.5");
});

test("the first figure shows at once; a burst shows its latest figure once the interval is over", async () => {
  const { out, report } = collect();
  const lines = progressLines(report, 80);
  lines.onProgress({ progress: 1, total: 4 });
  expect(out).toEqual(["progress 1/4\n"]);
  lines.onProgress({ progress: 2, total: 4 });
  lines.onProgress({ progress: 3, total: 4 });
  expect(out).toHaveLength(1);
  await sleep(150);
  expect(out).toEqual(["progress 1/4\n", "progress 3/4\n"]);
  lines.stop();
});

test("the same figure again is not repeated; a wrong shape is ignored", async () => {
  const { out, report } = collect();
  const lines = progressLines(report, 20);
  lines.onProgress({ progress: 1 });
  await sleep(40);
  lines.onProgress({ progress: 1 });
  lines.onProgress({ session_id: "x" });
  lines.onProgress({ progress: "2" });
  await sleep(40);
  expect(out).toEqual(["progress 1\n"]);
  lines.stop();
});

test("a figure still waiting when the call ends is dropped", async () => {
  const { out, report } = collect();
  const lines = progressLines(report, 50);
  lines.onProgress({ progress: 1 });
  lines.onProgress({ progress: 2 });
  lines.stop();
  await sleep(100);
  expect(out).toEqual(["progress 1\n"]);
});
