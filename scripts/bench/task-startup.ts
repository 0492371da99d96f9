// A child task's startup: to its first model request reaching a local mock server, two ways the agents
// worker starts one: cold (spawn `i task-child`, the task on its stdin at once: the first task of a
// session) and warm (the task written to a child process started ahead, as every later task is). Usage:
//   bun scripts/bench/task-startup.ts [runs] [path/to/compiled/i]
// Without a path it runs the source with this runtime (slower to start than the compiled binary).
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { ChildSpec } from "../../src/contract/tasks.ts";
import { BUILTIN_AGENTS } from "../../src/lib/agent-definitions.ts";
import { report } from "./stats.ts";

const runs = Number(process.argv[2] ?? 10);
const exe = process.argv[3];
const main = resolve(import.meta.dirname, "..", "..", "src", "cli", "main.ts");
const exec = exe ? [resolve(exe)] : [process.execPath, main];

const root = mkdtempSync(join(tmpdir(), "i-bench-task-"));
const ws = join(root, "ws");
const cfg = join(root, "cfg");
for (const d of [ws, cfg]) mkdirSync(d, { recursive: true });
writeFileSync(join(cfg, "config.json"), JSON.stringify({ models: { m: { context_window: 100000 } } }));
writeFileSync(join(cfg, "auth.json"), JSON.stringify({ openai: "sk-bench-not-real" }), { mode: 0o600 });

let arrived: (() => void) | undefined;
const server = createServer((req, res) => {
  arrived?.();
  req.resume();
  res.writeHead(500).end();
});
await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
const port = (server.address() as { port: number }).port;

const cold: number[] = [];
const warm: number[] = [];
const floor: number[] = [];
try {
  for (let i = 0; i < 2 * (runs + 1); i++) {
    const ahead = i % 2 === 1;
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
      },
    };
    const first = new Promise<void>((r) => {
      arrived = r;
    });
    let t0 = performance.now();
    const child = spawn(exec[0] as string, [...exec.slice(1), "task-child"], {
      cwd: ws,
      env: { PATH: process.env.PATH ?? "", HOME: root, I_CONFIG_DIR: cfg, I_DATA_DIR: join(root, "data") },
      stdio: ["pipe", "ignore", "ignore"],
    });
    if (ahead) {
      await new Promise((r) => setTimeout(r, 1500));
      t0 = performance.now();
    }
    child.stdin?.write(`${JSON.stringify(spec)}\n`);
    await first;
    if (i > 1) (ahead ? warm : cold).push(performance.now() - t0);
    child.stdin?.end();
    // The floor of this machine now: the same executable's own start and exit (`--version`).
    const v0 = performance.now();
    spawnSync(exec[0] as string, [...exec.slice(1), "--version"], { stdio: "ignore" });
    if (i > 1) floor.push(performance.now() - v0);
    await new Promise((r) => child.on("close", r));
  }
  const kind = exe ? "compiled" : "source";
  report(`floor: \`i --version\`, start to exit (${kind})`, floor, "ms", 1);
  report(`first task of a session: spawn to first model request (${kind})`, cold, "ms", 1);
  report(`later tasks: task written to a child started ahead, to its first request (${kind})`, warm, "ms", 1);
} finally {
  server.close();
  rmSync(root, { recursive: true, force: true });
}
