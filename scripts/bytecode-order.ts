// Writes the bytecode order files the build lays the executable's bytecode out by (`--bytecode-order`):
// the functions a session's core runs (S1 of scripts/bench/memory.ts: 40 tool turns that compact in a
// 12k window, against the in-process mock model), the functions an idle built-in worker runs after
// the standard modules' hellos, and those `i acp` runs for an editor's session (initialize, session/new,
// a prompt of 20 tool turns), each in the order first run. With that layout the code a session needs
// sits on few pages of the executable instead of being spread over all of them, so each process maps
// fewer of its file-backed pages: S1 tree PSS ~74 -> ~71 MB.
// An order file only names functions (by a hash of their code): one left behind by later changes is
// still valid, it just orders fewer functions. Regenerate after large changes:
//   bun scripts/bytecode-order.ts          (builds dist/ first, then runs the compiled binary)
//   bun scripts/bytecode-order.ts --acp    (only acp.txt, the others kept)
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUILTIN_WORKER_ENV } from "../src/worker/env.ts";
import { connect, startAcp } from "./bench/acp-client.ts";
import {
  benchDirs,
  benchMock,
  compiledBinary,
  ensureCompiled,
  printArgs,
  runSampled,
} from "./bench/agent-run.ts";
import { ORDER_DIR, ORDER_FILES } from "./bytecode-order-files.ts";

const ORDER_VAR = "BUN_BYTECODE_ORDER_OUT";
const WORKER_MODULES = "budget,prompts,compact,skills,memory,cache,search,hooks,plan";

async function coreOrder(bin: string, out: string): Promise<void> {
  const mock = await benchMock();
  const dirs = benchDirs({ contextWindow: 12_000, profile: "standard" });
  try {
    let done = 0;
    mock.reset((_k, req) => {
      const tools = (req.body as { tools?: unknown[] }).tools;
      if (!tools || tools.length === 0)
        return { text: `## Goal\nList lines.\n## Progress\n${done} listings.` };
      if (done++ < 40)
        return {
          tool_calls: [{ name: "bash", arguments: { command: `seq 1 180 | sed 's/^/line ${done} /'` } }],
        };
      return { text: "finished" };
    });
    const r = await runSampled(
      [bin, ...printArgs(mock.url, dirs, 100)],
      { ...dirs.env, [ORDER_VAR]: out },
      dirs.workspace,
    );
    if (r.code !== 0) throw new Error(`the core's run exited ${r.code}: ${r.stderr.trim()}`);
  } finally {
    dirs.remove();
    await mock.close();
  }
}

async function workerOrder(bin: string, out: string): Promise<void> {
  const hellos = WORKER_MODULES.split(",")
    .map(
      (m, i) =>
        `${JSON.stringify({ id: i + 1, event: "hello", workspace: tmpdir(), data: { protocol: 1, module: m }, module: m })}\n`,
    )
    .join("");
  const child = spawn(bin, ["worker", WORKER_MODULES], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...BUILTIN_WORKER_ENV, [ORDER_VAR]: out },
    stdio: ["pipe", "ignore", "inherit"],
  });
  child.stdin.write(hellos);
  await new Promise((r) => setTimeout(r, 1500));
  // Closing stdin is a worker's signal to finish; the order file is written at exit.
  child.stdin.end();
  const code = await new Promise<number | null>((r) => child.on("exit", r));
  if (code !== 0) throw new Error(`the idle worker exited ${code}`);
}

async function acpOrder(bin: string, out: string): Promise<void> {
  const mock = await benchMock();
  const dirs = benchDirs({ contextWindow: 100_000, profile: "standard" });
  try {
    mock.reset((k) =>
      k < 20
        ? { tool_calls: [{ name: "bash", arguments: { command: `echo turn ${k}` } }] }
        : { text: "done" },
    );
    const child = startAcp([bin], mock.url, dirs.workspace, { ...dirs.env, [ORDER_VAR]: out }, "inherit");
    const exited = new Promise<number | null>((r) => child.on("exit", r));
    const conn = connect(child);
    await conn.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const s = await conn.request("session/new", { cwd: dirs.workspace, mcpServers: [] });
    await conn.request("session/prompt", {
      sessionId: s.sessionId,
      prompt: [{ type: "text", text: "run the commands" }],
    });
    // Closing stdin ends the agent; the order file is written at exit.
    child.stdin?.end();
    const code = await exited;
    if (code !== 0) throw new Error(`i acp exited ${code}`);
  } finally {
    dirs.remove();
    await mock.close();
  }
}

if (import.meta.main && process.argv.includes("--acp")) {
  ensureCompiled();
  const tmp = join(tmpdir(), `i-bytecode-order-${process.pid}`);
  mkdirSync(tmp, { recursive: true });
  try {
    const file = ORDER_FILES.find((f) => f.endsWith("acp.txt")) as string;
    await acpOrder(compiledBinary(), join(tmp, "acp.txt"));
    copyFileSync(join(tmp, "acp.txt"), file);
    spawnSync(process.execPath, [join(import.meta.dirname, "build.ts")], { stdio: "inherit" });
    console.log(`wrote ${file}; dist/ rebuilt with it`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
} else if (import.meta.main) {
  // Built without the old order first, so the new one does not depend on it.
  rmSync(ORDER_DIR, { recursive: true, force: true });
  ensureCompiled();
  const bin = compiledBinary();
  const tmp = join(tmpdir(), `i-bytecode-order-${process.pid}`);
  mkdirSync(tmp, { recursive: true });
  try {
    await coreOrder(bin, join(tmp, "core.txt"));
    await workerOrder(bin, join(tmp, "worker.txt"));
    await acpOrder(bin, join(tmp, "acp.txt"));
    mkdirSync(ORDER_DIR, { recursive: true });
    for (const f of ORDER_FILES) copyFileSync(join(tmp, f.slice(ORDER_DIR.length + 1)), f);
    spawnSync(process.execPath, [join(import.meta.dirname, "build.ts")], { stdio: "inherit" });
    console.log(`wrote ${ORDER_FILES.join(", ")}; dist/ rebuilt with them`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
