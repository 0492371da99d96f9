// A child task's startup: to its first model request reaching a local mock server, two ways the agents
// worker starts one: cold (spawn `i task-child`, the task on its stdin at once: the first task of a
// session) and warm (the task written to a child process started ahead, as every later task is). Each
// task carries a one-time key ticket, as a real one does, so the key hand-over is measured too. Usage:
//   bun scripts/bench/task-startup.ts [runs] [path/to/compiled/i …] [--steps]
// Several executables (this build and main's, say) are run in turn, so one machine load serves the
// comparison; each is reported with its own floor (`i --version`). --steps adds where a cold child's time
// goes, from its I_DEBUG_STARTUP marks (its worker process's marks included). Without a path it runs the
// source with this runtime (slower to start than the compiled binary).
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { ChildSpec } from "../../src/contract/tasks.ts";
import { BUILTIN_AGENTS } from "../../src/lib/agent-definitions.ts";
import { engineModeForChild } from "../../src/lib/engine-mode-env.ts";
import { CredentialBroker } from "../../src/runtime/credential-broker.ts";
import { BUILTIN_WORKER_ENV } from "../../src/worker/env.ts";
import { median, report } from "./stats.ts";

const args = process.argv.slice(2);
const steps = args.includes("--steps");
const positional = args.filter((a) => a !== "--steps");
const runs = Number(positional[0] ?? 10);
const main = resolve(import.meta.dirname, "..", "..", "src", "cli", "main.ts");
const exes: string[][] =
  positional.length > 1 ? positional.slice(1).map((e) => [resolve(e)]) : [[process.execPath, main]];

const root = mkdtempSync(join(tmpdir(), "i-bench-task-"));
const ws = join(root, "ws");
const cfg = join(root, "cfg");
for (const d of [ws, cfg]) mkdirSync(d, { recursive: true });
writeFileSync(join(cfg, "config.json"), JSON.stringify({ models: { m: { context_window: 100000 } } }));
const broker = new CredentialBroker(() => ({ OPENAI_API_KEY: "sk-bench-not-real" }));

let arrived: (() => void) | undefined;
const server = createServer((req, res) => {
  arrived?.();
  req.resume();
  res.writeHead(500).end();
});
await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
const port = (server.address() as { port: number }).port;

interface Figures {
  cold: number[];
  warm: number[];
  floor: number[];
  /** per step of a cold child: ms after the child's own start */
  steps: Map<string, number[]>;
}
const figures = exes.map((): Figures => ({ cold: [], warm: [], floor: [], steps: new Map() }));

/** `startup <ms> <epoch ms> <step>` lines of the child (stderr) and its workers (their logs), on its clock. */
function collectSteps(into: Figures["steps"], stderr: string): void {
  const logDir = join(cfg, "logs");
  let logs = "";
  try {
    for (const f of readdirSync(logDir)) logs += readFileSync(join(logDir, f), "utf8");
    rmSync(logDir, { recursive: true, force: true });
  } catch {}
  const line = /startup (\S+) (\S+) (.*)$/;
  const seen = new Map<string, number>();
  let origin: number | undefined;
  for (const l of stderr.split("\n")) {
    const m = line.exec(l);
    if (!m) continue;
    origin ??= Number(m[2]) - Number(m[1]);
    if (!seen.has(m[3] as string)) seen.set(m[3] as string, Number(m[1]));
  }
  if (origin === undefined) return;
  for (const l of logs.split("\n")) {
    const m = line.exec(l);
    const name = `worker: ${m?.[3]}`;
    if (m && !seen.has(name)) seen.set(name, Number(m[2]) - origin);
  }
  for (const [k, v] of seen) into.set(k, [...(into.get(k) ?? []), v]);
}

async function once(exec: string[], f: Figures, i: number, ahead: boolean): Promise<void> {
  const spec: ChildSpec = {
    prompt: "hi",
    description: "bench",
    call_id: `c${i}`,
    agent: BUILTIN_AGENTS[1] as ChildSpec["agent"],
    context: {
      exec,
      session_id: "bench-parent",
      workspace: ws,
      provider: "openai",
      model: "m",
      base_url: `http://127.0.0.1:${port}/v1`,
      approve: "none",
      tools: ["read", "grep", "find"],
      credential: await broker.mint(),
    },
  };
  const first = new Promise<void>((r) => {
    arrived = r;
  });
  const trace = steps && !ahead;
  let t0 = performance.now();
  const child = spawn(exec[0] as string, [...exec.slice(1), "task-child"], {
    cwd: ws,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: root,
      I_CONFIG_DIR: cfg,
      I_DATA_DIR: join(root, "data"),
      // What the agents worker (itself in the built-in workers' engine mode) hands the child it starts.
      ...engineModeForChild(BUILTIN_WORKER_ENV),
      ...(trace ? { I_DEBUG_STARTUP: "1" } : {}),
    },
    stdio: ["pipe", "ignore", trace ? "pipe" : "ignore"],
  });
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  if (ahead) {
    await new Promise((r) => setTimeout(r, 1500));
    t0 = performance.now();
  }
  child.stdin?.write(`${JSON.stringify(spec)}\n`);
  await first;
  const took = performance.now() - t0;
  child.stdin?.end();
  // The floor of this machine now: the same executable's own start and exit (`--version`).
  const v0 = performance.now();
  spawnSync(exec[0] as string, [...exec.slice(1), "--version"], { stdio: "ignore" });
  const floor = performance.now() - v0;
  await new Promise((r) => child.on("close", r));
  if (i < 2) return; // the first runs warm the page cache
  (ahead ? f.warm : f.cold).push(took);
  f.floor.push(floor);
  if (trace) collectSteps(f.steps, stderr);
}

try {
  for (let i = 0; i < 2 * (runs + 1); i++)
    for (const [k, exec] of exes.entries()) await once(exec, figures[k] as Figures, i, i % 2 === 1);
  const kind = positional.length > 1 ? "compiled" : "source";
  for (const [k, exec] of exes.entries()) {
    const f = figures[k] as Figures;
    if (exes.length > 1) console.log(`\n${exec[0]}`);
    report(`floor: \`i --version\`, start to exit (${kind})`, f.floor, "ms", 1);
    report(`first task of a session: spawn to first model request (${kind})`, f.cold, "ms", 1);
    report(
      `later tasks: task written to a child started ahead, to its first request (${kind})`,
      f.warm,
      "ms",
      1,
    );
    if (f.steps.size === 0) continue;
    console.log("  a cold child's steps, median ms after its start:");
    for (const [name, v] of [...f.steps].sort((a, b) => median(a[1]) - median(b[1])))
      console.log(`  ${median(v).toFixed(1).padStart(7)}  ${name}`);
  }
} finally {
  server.close();
  broker.close();
  rmSync(root, { recursive: true, force: true });
}
