// Cost of workspace checkpoints on a generated workspace (default 10,000 files, 200 MB in 100
// directories): the first checkpoint (an empty store: every file read, hashed and stored), an unchanged
// one (the stat cache: one lstat per file), one with 10 files changed, and what a turn that changes
// nothing pays (a read-only tool call and the turn's end). Floors measured in the same run: walking the
// tree with readdir + lstat, and reading every file. Medians; by default compiled (`bun build --compile`)
// as `i` ships, `--source` to run from source.
//   bun scripts/bench/checkpoints.ts [--files N] [--mb N] [--runs N] [--source]
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHECKPOINT_DEFAULTS } from "../../src/contract/checkpoints.ts";
import { Checkpointer } from "../../src/safety/checkpointer.ts";
import { Session } from "../../src/session/session.ts";
import { report } from "./stats.ts";

const args = process.argv.slice(2);
const opt = (name: string, d: number) => {
  const i = args.indexOf(name);
  return i === -1 ? d : Number(args[i + 1]);
};
const FILES = opt("--files", 10_000);
const MB = opt("--mb", 200);
const RUNS = opt("--runs", 15);

function generate(root: string): void {
  const perDir = 100;
  const avg = Math.floor((MB * 1024 * 1024) / FILES);
  const pool = randomBytes(avg * 2 + 1024);
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, `dir${String(Math.floor(i / perDir)).padStart(3, "0")}`);
    if (i % perDir === 0) mkdirSync(dir, { recursive: true });
    // Sizes from half to one and a half times the average, content unique per file.
    const size = Math.floor(avg / 2 + ((i * 7919) % avg));
    const buf = Buffer.from(pool.subarray(i % 1024, (i % 1024) + size));
    buf.writeUInt32LE(i, 0);
    writeFileSync(join(dir, `file${i}.txt`), buf);
  }
  writeFileSync(join(root, ".gitignore"), "*.log\nbuild/\n");
}

function walkFloor(root: string, read: boolean): void {
  for (const d of readdirSync(root, { withFileTypes: true })) {
    const p = join(root, d.name);
    if (d.isDirectory()) walkFloor(p, read);
    else if (read) readFileSync(p);
    else lstatSync(p);
  }
}

/** Copy every file's bytes to a new file under `to`: what storing a first checkpoint must write at least. */
function writeFloor(root: string, to: string): void {
  mkdirSync(to, { recursive: true });
  let n = 0;
  const walk = (dir: string) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else writeFileSync(join(to, String(n++)), readFileSync(p));
    }
  };
  walk(root);
}

function time(f: () => void): number {
  const t = performance.now();
  f();
  return performance.now() - t;
}

function newCheckpointer(dataRoot: string, ws: string): Checkpointer {
  const data = mkdtempSync(join(dataRoot, "d-"));
  const session = Session.create({ dataDir: data, workspace: ws });
  return new Checkpointer({
    session,
    workspace: ws,
    // No time cap here: the figure is how long a whole first checkpoint takes on this machine.
    policy: { ...CHECKPOINT_DEFAULTS, max_ms: 600_000 },
    warn: (l) => console.log(`  (${l})`),
  });
}

function inner(): void {
  const root = mkdtempSync(join(tmpdir(), "i-bench-cps-"));
  const ws = join(root, "ws");
  const dataRoot = join(root, "data");
  mkdirSync(dataRoot);
  try {
    generate(ws);
    console.log(`workspace: ${FILES} files, ${MB} MB, under ${ws}`);
    const lstatFloor = Array.from({ length: RUNS }, () => time(() => walkFloor(ws, false)));
    const readFloor = Array.from({ length: 5 }, () => time(() => walkFloor(ws, true)));
    report("floor: readdir + lstat of every file", lstatFloor, "ms");
    report("floor: read every file", readFloor, "ms");
    const copyFloor = Array.from({ length: 3 }, (_, i) =>
      time(() => writeFloor(ws, join(dataRoot, `copy${i}`))),
    );
    report("floor: read every file and write it to a new file", copyFloor, "ms");
    for (let i = 0; i < 3; i++) rmSync(join(dataRoot, `copy${i}`), { recursive: true, force: true });
    let ts = 0;
    const stamp = () => new Date(Date.UTC(2026, 0, 1) + ++ts * 1000).toISOString();
    const firsts: number[] = [];
    let cp = newCheckpointer(dataRoot, ws);
    for (let i = 0; i < 5; i++) {
      // The previous run's store goes first: its 200 MB still being written back would slow this one.
      if (i > 0) rmSync(cp.store.root, { recursive: true, force: true });
      cp = newCheckpointer(dataRoot, ws);
      firsts.push(time(() => cp.record("before", stamp())));
    }
    report("first checkpoint (empty store)", firsts, "ms");
    const unchanged = Array.from({ length: RUNS }, () => time(() => cp.record("before", stamp())));
    report("unchanged checkpoint", unchanged, "ms");
    const changed: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      for (let k = 0; k < 10; k++) {
        const i = (r * 997 + k * 131) % FILES;
        const dir = `dir${String(Math.floor(i / 100)).padStart(3, "0")}`;
        writeFileSync(join(ws, dir, `file${i}.txt`), `changed ${r} ${k} ${randomBytes(8).toString("hex")}`);
      }
      changed.push(time(() => cp.record("before", stamp())));
    }
    report("checkpoint with 10 files changed", changed, "ms");
    // A turn that changes nothing: the dispatch calls no checkpoint for a call that only reads, so what
    // it adds is the turn's end.
    const idle: number[] = [];
    for (let r = 0; r < 1000; r++) {
      const t0 = process.hrtime.bigint();
      cp.afterTurn();
      idle.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    report("added cost of a turn that changes nothing", idle, "ms", 4);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (args.includes("--inner") || args.includes("--source")) inner();
else {
  const out = join(mkdtempSync(join(tmpdir(), "i-bench-cps-bin-")), "bench");
  const build = spawnSync(process.execPath, ["build", "--compile", import.meta.filename, "--outfile", out], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (build.status !== 0) {
    console.log("compiling failed; measuring from source");
    inner();
  } else {
    console.log("compiled (bun build --compile)");
    spawnSync(out, ["--inner", ...args], { stdio: "inherit" });
    rmSync(join(out, ".."), { recursive: true, force: true });
  }
}
