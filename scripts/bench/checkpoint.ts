// Cost of one session checkpoint: the median wall time of Session.checkpoint over a growing tool-call
// conversation, and (when strace is installed) the fsync/fdatasync calls per checkpoint. A second tree
// can be measured with `--src DIR` (e.g. a checkout of main) to compare before and after.
// Usage: bun scripts/bench/checkpoint.ts [--src DIR] [--turns N]
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { report } from "./stats.ts";

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const src = resolve(opt("--src") ?? join(import.meta.dirname, "..", ".."));
const turns = Number(opt("--turns") ?? "200");
const inner = args.includes("--inner");

interface SessionLike {
  checkpoint(h: unknown[]): void;
}
interface SessionClass {
  create(o: { dataDir: string; workspace: string }): SessionLike;
}

async function measure(): Promise<number[]> {
  const { Session } = (await import(join(src, "src/session/session.ts"))) as { Session: SessionClass };
  const root = mkdtempSync(join(tmpdir(), "i-bench-ckpt-"));
  mkdirSync(join(root, "ws"));
  const s = Session.create({ dataDir: join(root, "data"), workspace: join(root, "ws") });
  const h: unknown[] = [
    { role: "system", content: "bench" },
    { role: "user", content: "go" },
  ];
  const times: number[] = [];
  for (let t = 0; t < turns; t++) {
    const id = `call_${t}`;
    h.push({
      role: "assistant",
      content: "",
      tool_calls: [{ id, name: "bash", arguments: '{"command":"echo hi"}' }],
    });
    h.push({ role: "tool", tool_call_id: id, content: `hi ${"x".repeat(200)}` });
    const t0 = performance.now();
    s.checkpoint([...h]);
    times.push(performance.now() - t0);
  }
  rmSync(root, { recursive: true, force: true });
  return times;
}

if (inner) {
  await measure();
} else {
  console.log(`tree: ${src}, ${turns} checkpoints (one tool call + result each)`);
  const times = await measure();
  report("checkpoint time", times, "ms", 3);
  const out = join(mkdtempSync(join(tmpdir(), "i-bench-strace-")), "strace.txt");
  const r = spawnSync(
    "strace",
    [
      "-f",
      "-qq",
      "-c",
      "-o",
      out,
      "-e",
      "trace=fsync,fdatasync",
      process.execPath,
      import.meta.filename,
      "--src",
      src,
      "--turns",
      String(turns),
      "--inner",
    ],
    { stdio: "ignore" },
  );
  if (r.error || r.status !== 0) console.log("fsyncs per checkpoint: strace not available");
  else {
    const calls = readFileSync(out, "utf8")
      .split("\n")
      .filter((l) => /\b(fsync|fdatasync)\s*$/.test(l))
      .map((l) => Number(l.trim().split(/\s+/)[3]));
    const total = calls.reduce((a, b) => a + b, 0);
    console.log(
      `fsyncs per checkpoint: ${(total / turns).toFixed(2)} (${total} over ${turns}, session creation included)`,
    );
  }
}
