// A child task's startup: from spawning `i task-child` (the task on its stdin, as the agents worker starts
// it) to its first model request reaching a local mock server. Usage:
//   bun scripts/bench/task-startup.ts [runs] [path/to/compiled/i]
// Without a path it runs the source with this runtime (slower to start than the compiled binary).
import { spawn } from "node:child_process";
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

const samples: number[] = [];
try {
  for (let i = 0; i < runs + 1; i++) {
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
    const t0 = performance.now();
    const child = spawn(exec[0] as string, [...exec.slice(1), "task-child"], {
      cwd: ws,
      env: { PATH: process.env.PATH ?? "", HOME: root, I_CONFIG_DIR: cfg, I_DATA_DIR: join(root, "data") },
      stdio: ["pipe", "ignore", "ignore"],
    });
    child.stdin?.write(`${JSON.stringify(spec)}\n`);
    await first;
    if (i > 0) samples.push(performance.now() - t0);
    child.stdin?.end();
    await new Promise((r) => child.on("close", r));
  }
  report(
    `task child startup, spawn to first model request (${exe ? "compiled" : "source"})`,
    samples,
    "ms",
    1,
  );
} finally {
  server.close();
  rmSync(root, { recursive: true, force: true });
}
