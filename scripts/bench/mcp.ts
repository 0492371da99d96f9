// What MCP costs. (1) Per turn: S0 (N one-line bash turns) run by `i` with three configured MCP servers
// (the reference servers everything, memory and filesystem) and no MCP call, against the same run with no
// mcp.json, interleaved; the figure is the median gap between consecutive model requests (target: within
// 1 ms of none; the three servers' tools ride along in every request), and its parts in the core: the
// tools refresh (no round trip while the module watches), the poll it replaces, the budget hook's share.
// (2) One MCP call's overhead: the everything server's echo called through the worker host (core → `i worker mcp` → server) against the
// same call made directly with the SDK client in this process (target ≤ 5 ms median). (3) Whether
// `i --version` loads any of it (startup, from source), and with --build the compiled binary's size.
//   bun scripts/bench/mcp.ts [--turns 100] [--runs 3] [--calls 300] [--build]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { runtimeToolsRefresher } from "../../src/agent/runtime-tools.ts";
import { MODULE_NAMES } from "../../src/contract/registry.ts";
import { generateManifest } from "../../src/manifest/generate.ts";
import { nowNs } from "../../src/runtime/runtime.ts";
import { DeclaredTools } from "../../src/tools/declared-tools.ts";
import type { ToolDecl } from "../../src/tools/types.ts";
import { WorkerHost } from "../../src/worker/host.ts";
import {
  agentArgv,
  benchDirs,
  benchMock,
  compiledBinary,
  printArgs,
  ROOT,
  runSampled,
  s0,
} from "./agent-run.ts";
import { fmt, median, quantile, report } from "./stats.ts";

const { values } = parseArgs({
  options: {
    turns: { type: "string", default: "100" },
    runs: { type: "string", default: "3" },
    calls: { type: "string", default: "300" },
    build: { type: "boolean", default: false },
  },
});
const TURNS = Number(values.turns);
const RUNS = Number(values.runs);
const CALLS = Number(values.calls);

const pkg = (p: string) => join(ROOT, "node_modules", "@modelcontextprotocol", p, "dist", "index.js");
const EVERYTHING = pkg("server-everything");
const servers = (ws: string) => ({
  everything: { command: process.execPath, args: [EVERYTHING, "stdio"] },
  memory: {
    command: process.execPath,
    args: [pkg("server-memory")],
    env: { MEMORY_FILE_PATH: join(ws, "m.jsonl") },
  },
  fs: { command: process.execPath, args: [pkg("server-filesystem"), ws] },
});

const mock = await benchMock();

async function agentTurns(withMcp: boolean): Promise<number> {
  const dirs = benchDirs({ contextWindow: 4_000_000, profile: "standard" });
  try {
    if (withMcp)
      writeFileSync(
        join(dirs.configDir, "mcp.json"),
        JSON.stringify({ mcpServers: servers(dirs.workspace) }),
      );
    mock.reset(s0(TURNS));
    // Not spawnSync: the mock model answers from this process's event loop.
    const r = await runSampled(
      [...agentArgv("source"), ...printArgs(mock.url, dirs, TURNS + 10)],
      dirs.env,
      dirs.workspace,
      1000,
    );
    if (r.code !== 0) throw new Error(`i exited ${r.code}: ${r.stderr.trim()}`);
    const at = mock.arrivals;
    if (at.length !== TURNS + 1) throw new Error(`${at.length} model requests, expected ${TURNS + 1}`);
    if (withMcp && !JSON.stringify(mock.first).includes("mcp__everything__echo"))
      throw new Error("the MCP tools were not offered to the model");
    return median(at.slice(1).map((t, i) => t - (at[i] as number)));
  } finally {
    dirs.remove();
  }
}

async function timeCalls(once: () => Promise<unknown>, n = CALLS, warm = 30): Promise<number[]> {
  for (let i = 0; i < warm; i++) await once();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = nowNs();
    await once();
    out.push(Number(nowNs() - t0) / 1e6);
  }
  return out;
}

/**
 * The core's own per-turn work for MCP before each model request: what the refresher does (nothing while
 * the mcp module's watch is open), the `tools` poll it replaces (a module that does not watch), and the
 * budget hook with the servers' tool declarations against without them. The declarations are returned.
 */
async function perTurnParts(): Promise<{ refresh: number[]; poll: number[]; decls: ToolDecl[] }> {
  const dir = mkdtempSync(join(tmpdir(), "i-bench-mcp-"));
  writeFileSync(join(dir, "mcp.json"), JSON.stringify({ mcpServers: servers(dir) }));
  const host = new WorkerHost(mcpManifest(dir), { workspace: dir, configDir: dir });
  try {
    const declared = new DeclaredTools();
    const refresher = runtimeToolsRefresher(host, declared, "all", () => {});
    if (!refresher) throw new Error("no module declares tools at run time");
    await refresher.refresh();
    const decls = [...declared.decls()];
    if (decls.length < 20) throw new Error("the three servers did not declare their tools");
    const refresh = await timeCalls(() => refresher.refresh());
    const poll = await timeCalls(() => host.refreshTools());
    return { refresh, poll, decls };
  } finally {
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One budget hook round trip (the built-in module) for a 200-message history, with `tools` offered. */
async function budgetCost(tools: readonly ToolDecl[][]): Promise<number[][]> {
  const dir = mkdtempSync(join(tmpdir(), "i-bench-mcp-"));
  const manifest = generateManifest({
    profile: "standard",
    configDir: dir,
    plugins: { disabled: MODULE_NAMES.filter((m) => m !== "budget") },
    bindings: {},
    self: [process.execPath, join(ROOT, "src", "cli", "main.ts")],
  });
  const host = new WorkerHost(manifest, { workspace: dir, configDir: dir });
  const history: unknown[] = [{ role: "system", content: "you are a coding agent" }];
  for (let i = 0; i < 100; i++)
    history.push({ role: "user", content: `turn ${i} `.repeat(20) }, { role: "assistant", content: "ok" });
  const data = (t: readonly ToolDecl[]) => ({
    model: { name: "m", context_window: 4_000_000 },
    policy: { trigger_ratio: 0.8, rearm_ratio: 0.6 },
    system: "you are a coding agent",
    tools: t,
    history,
    state: { armed: true },
  });
  try {
    const out = tools.map(() => [] as number[]);
    // Interleaved rounds: the machine's load falls on both alike.
    for (let round = 0; round < 10; round++)
      for (const [i, t] of tools.entries()) {
        const d = data(t);
        (out[i] as number[]).push(...(await timeCalls(() => host.runHook("budget", d), CALLS / 10, 3)));
      }
    return out;
  } finally {
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function mcpManifest(dir: string) {
  return generateManifest({
    profile: "full",
    configDir: dir,
    plugins: { disabled: MODULE_NAMES.filter((m) => m !== "mcp") },
    bindings: {},
    self: [process.execPath, join(ROOT, "src", "cli", "main.ts")],
  });
}

async function callOverhead(): Promise<{ direct: number[]; viaHost: number[] }> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "ignore" }),
  );
  const args = { message: "hello" };
  const direct = await timeCalls(() => client.callTool({ name: "echo", arguments: args }));
  await client.close();
  const dir = mkdtempSync(join(tmpdir(), "i-bench-mcp-"));
  writeFileSync(
    join(dir, "mcp.json"),
    JSON.stringify({ mcpServers: { everything: servers(dir).everything } }),
  );
  const host = new WorkerHost(mcpManifest(dir), { workspace: dir, configDir: dir });
  try {
    await host.refreshTools();
    let n = 0;
    const viaHost = await timeCalls(() => host.callTool("mcp__everything__echo", args, `c${n++}`));
    return { direct, viaHost };
  } finally {
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function versionStartup(): number[] {
  const out: number[] = [];
  for (let i = 0; i < 25; i++) {
    const t0 = nowNs();
    spawnSync(process.execPath, [join(ROOT, "src", "cli", "main.ts"), "--version"]);
    out.push(Number(nowNs() - t0) / 1e6);
  }
  return out;
}

console.log(
  `per turn: S0 ${TURNS} turns, ${RUNS} runs each, interleaved (median gap between model requests)`,
);
const none: number[] = [];
const three: number[] = [];
for (let r = 0; r < RUNS; r++) {
  none.push(await agentTurns(false));
  three.push(await agentTurns(true));
}
console.log(
  `  no mcp.json:            ${none.map((v) => fmt(v)).join(", ")} ms  (median ${fmt(median(none))})`,
);
console.log(
  `  three servers, no call: ${three.map((v) => fmt(v)).join(", ")} ms  (median ${fmt(median(three))})`,
);
console.log(`  difference: ${fmt(median(three) - median(none))} ms per turn (target ≤ 1 ms)`);
await mock.close();

const parts = await perTurnParts();
report("  the core's tools refresh before each request (watching)", parts.refresh, "ms", 3);
report("  the tools poll it skips (a module that does not watch) ", parts.poll, "ms", 3);
const core: ToolDecl[] = [{ name: "bash", description: "run a command", input_schema: { type: "object" } }];
const [few, many] = await budgetCost([core, [...core, ...parts.decls]]);
report("  budget hook, the core's tool only", few as number[], "ms", 3);
report(`  budget hook, with the servers' ${parts.decls.length} tools`, many as number[], "ms", 3);
console.log(
  `  the declarations' share of the budget hook: ${fmt(median(many as number[]) - median(few as number[]), 3)} ms (${JSON.stringify(parts.decls).length} bytes of JSON)`,
);

console.log(`\none MCP call (everything's echo), ${CALLS} calls after 30 warm-up`);
const { direct, viaHost } = await callOverhead();
report("  SDK client → server directly", direct, "ms", 3);
report("  core → i worker mcp → server ", viaHost, "ms", 3);
console.log(
  `  overhead: ${fmt(median(viaHost) - median(direct), 3)} ms median (p90 ${fmt(quantile(viaHost, 0.9) - quantile(direct, 0.9), 3)}; target ≤ 5 ms)`,
);

console.log("");
report("i --version from source (the SDK is never loaded)", versionStartup(), "ms", 1);
if (values.build) {
  const b = spawnSync(process.execPath, [join(ROOT, "scripts", "build.ts")], { cwd: ROOT, stdio: "inherit" });
  if (b.status !== 0) throw new Error("build failed");
  console.log(
    `compiled binary: ${fmt(statSync(compiledBinary()).size / 1024 / 1024, 1)} MiB (${compiledBinary()})`,
  );
}
