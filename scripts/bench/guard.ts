// The bash guard's costs. (1) Classifying a command: median over the everyday and destructive corpora,
// the parser's one-time load excluded (and printed), against the floor of the same run: tree-sitter's
// parse alone; and the plain reading (a lexer, no parser) on the commands it takes. (2) A bash call's added cost with the sandbox on: `bash -c true` through bwrap with the
// default sandbox's argv against plain `bash -c true`, interleaved, medians. A turn without bash never
// loads the guard (it is a dynamic import in the bash tool), so its per-turn cost is unchanged.
// Targets: classify ≤ 1 ms median.
//   bun scripts/bench/guard.ts [--runs 200] [--spawns 40]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { classifyPlain, classifyWith, tempDirs } from "../../src/tools/guard/classify.ts";
import { bashParser, parseWith } from "../../src/tools/guard/parser.ts";
import { sandboxAvailability, sandboxed } from "../../src/tools/sandbox.ts";
import { DESTRUCTIVE, EVERYDAY } from "../../test/tools/guard/corpus.ts";
import { fmt, median, quantile } from "./stats.ts";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "200" }, spawns: { type: "string", default: "40" } },
});
const runs = Number(values.runs);
const spawns = Number(values.spawns);

const t0 = performance.now();
const parser = await bashParser();
const loadMs = performance.now() - t0;

const ws = mkdtempSync(join(tmpdir(), "i-bench-guard-"));
const place = { workspace: ws, cwd: ws, home: "/nonexistent-home", temp: tempDirs() };
const commands = [...EVERYDAY, ...DESTRUCTIVE.map((c) => c.replaceAll("{V}", "/srv/victim"))];
// Warm up (JIT, the first realpath calls), then sample each command in turn, `runs` rounds.
for (const c of commands) classifyWith(parser, c, place);
const classify: number[] = [];
const plainRead: number[] = [];
const floor: number[] = [];
const plainOnes = commands.filter((c) => classifyPlain(c, place) !== undefined);
for (let i = 0; i < runs; i++) {
  for (const c of commands) {
    let a = performance.now();
    const p = parseWith(parser, c);
    floor.push(performance.now() - a);
    p?.free();
    a = performance.now();
    classifyWith(parser, c, place);
    classify.push(performance.now() - a);
  }
  for (const c of plainOnes) {
    const a = performance.now();
    classifyPlain(c, place);
    plainRead.push(performance.now() - a);
  }
}
console.log(`guard: parser load ${fmt(loadMs, 1)} ms (once, on the first bash call; excluded below)`);
console.log(
  `guard: classify ${commands.length} commands × ${runs}: median ${fmt(median(classify), 3)} ms, p90 ${fmt(quantile(classify, 0.9), 3)} ms; floor (parse only) median ${fmt(median(floor), 3)} ms (target ≤ 1 ms)`,
);

console.log(
  `guard: the plain reading (no parser) takes ${plainOnes.length} of the ${commands.length}; on those: median ${fmt(median(plainRead), 3)} ms, p90 ${fmt(quantile(plainRead, 0.9), 3)} ms`,
);

const a = sandboxAvailability();
if ("problem" in a) console.log(`sandbox: not measured: ${a.problem}`);
else {
  const spec = { mode: "workspace-write" as const, network: true, bwrap: a.bwrap, hide: [] };
  const plain: number[] = [];
  const boxed: number[] = [];
  const argv = sandboxed(spec, ws, ["bash", "-c", "true"]);
  for (let i = 0; i < spawns; i++) {
    let s = performance.now();
    spawnSync("bash", ["-c", "true"], { cwd: ws, stdio: "ignore" });
    plain.push(performance.now() - s);
    s = performance.now();
    spawnSync(argv[0], argv.slice(1), { cwd: ws, stdio: "ignore" });
    boxed.push(performance.now() - s);
  }
  console.log(
    `sandbox: bash -c true × ${spawns}: in bwrap median ${fmt(median(boxed), 2)} ms, plain (floor) median ${fmt(median(plain), 2)} ms: added ${fmt(median(boxed) - median(plain), 2)} ms a bash call`,
  );
}
rmSync(ws, { recursive: true, force: true });
