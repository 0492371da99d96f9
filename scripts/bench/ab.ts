// A/B of this tree's compiled build against the compiled build of an earlier commit, in one run: the
// commit is extracted with `git archive` into a directory of its own (node_modules linked from this tree
// when both package.json files name the same dependencies, else `npm ci` there), built there with its own
// scripts/build.ts, and both binaries run interleaved by scripts/bench/turns.ts (per-turn gaps, the start
// to the first model request, the whole run, the tree's peak memory) and by the console start bench
// (scripts/bench/console.ts: the input line in a pseudo-terminal, `i --version` as the floor).
//   bun scripts/bench/ab.ts COMMIT [--turns 100,1] [--runs 5] [--data-dir /dev/shm] [--console 10]
//                                  [--dir DIR] [--keep] [--tool bash|read] [--json]
// --tool and --json pass through to turns.ts (read turns; `i -p --json`). The extracted tree is reused
// when DIR already holds that commit's build (--keep leaves it for next time).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { compiledBinary, ROOT } from "./agent-run.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    turns: { type: "string", default: "100,1" },
    runs: { type: "string", default: "5" },
    "data-dir": { type: "string" },
    console: { type: "string", default: "10" },
    dir: { type: "string" },
    keep: { type: "boolean", default: false },
    tool: { type: "string", default: "bash" },
    json: { type: "boolean", default: false },
  },
});
const commit = positionals[0];
if (!commit) {
  console.error(
    "usage: bun scripts/bench/ab.ts COMMIT [--turns 100,1] [--runs 5] [--data-dir DIR] [--console N]",
  );
  process.exit(2);
}

function run(cmd: string, args: string[], cwd: string): Buffer {
  const r = spawnSync(cmd, args, { cwd, stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}`);
  return r.stdout;
}

const sha = run("git", ["rev-parse", "--verify", `${commit}^{commit}`], ROOT)
  .toString()
  .trim();
const dir = values.dir ?? join(tmpdir(), `i-ab-${sha.slice(0, 12)}`);
const stamp = join(dir, ".ab-commit");
const built = existsSync(stamp) && readFileSync(stamp, "utf8") === sha && existsSync(compiledBinary(dir));
if (!built) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  console.log(`extracting ${sha.slice(0, 12)} into ${dir}`);
  // A pipe, not a buffer: the archive is tens of megabytes.
  run("sh", ["-c", 'git archive "$1" | tar -x -C "$2"', "sh", sha, dir], ROOT);
  // Our node_modules serves when every package theirs names is ours at the same version.
  const versions = (root: string): Record<string, string> => {
    const p = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    return { ...p.dependencies, ...p.devDependencies };
  };
  const ours = versions(ROOT);
  const covered = Object.entries(versions(dir)).every(([name, v]) => ours[name] === v);
  if (covered) symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  else run("npm", ["ci", "--no-audit", "--no-fund"], dir);
  run(process.execPath, ["scripts/build.ts"], dir);
  writeFileSync(stamp, sha);
}

const bench = (script: string, args: string[]) => {
  const r = spawnSync(process.execPath, [join(import.meta.dirname, script), ...args], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (r.status !== 0) throw new Error(`${script} exited ${r.status}`);
};
try {
  bench("turns.ts", [
    "--mode",
    `compiled,compiled:${dir}`,
    "--turns",
    values.turns,
    "--runs",
    values.runs,
    ...(values["data-dir"] ? ["--data-dir", values["data-dir"]] : []),
    "--tool",
    values.tool,
    ...(values.json ? ["--json"] : []),
  ]);
  if (Number(values.console) > 0)
    bench("console.ts", [values.console, "--no-render", "--against", compiledBinary(dir)]);
} finally {
  if (!values.keep && !values.dir) rmSync(dir, { recursive: true, force: true });
}
