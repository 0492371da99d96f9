// What MCP costs. (1) Per turn: S0 (N one-line bash turns) run by `i` with three configured MCP servers
// (the reference servers everything, memory and filesystem) and no MCP call, against the same run with no
// mcp.json, interleaved; the figure is the median gap between consecutive model requests (target: within
// 1 ms of none; the three servers' tools ride along in every request). (2) One MCP call's overhead: the
// everything server's echo called through the worker host (core → `i worker mcp` → server) against the
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
import { MODULE_NAMES } from "../../src/contract/registry.ts";
import { generateManifest } from "../../src/manifest/generate.ts";
import { nowNs } from "../../src/runtime/runtime.ts";
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

async function timeCalls(once: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 30; i++) await once();
  const out: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = nowNs();
    await once();
    out.push(Number(nowNs() - t0) / 1e6);
  }
  return out;
}

/** The core's own per-turn work for MCP: the `tools` poll of the mcp module before each model request. */
async function pollCost(): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), "i-bench-mcp-"));
  writeFileSync(join(dir, "mcp.json"), JSON.stringify({ mcpServers: servers(dir) }));
  const host = new WorkerHost(mcpManifest(dir), { workspace: dir, configDir: dir });
  try {
    const first = await host.refreshTools();
    if (!first.changed || (host.runtimeDecls().get("mcp")?.length ?? 0) < 20)
      throw new Error(`the three servers did not declare their tools: ${first.notices.join("; ")}`);
    return await timeCalls(() => host.refreshTools());
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

report("  of which the tools poll before each request", await pollCost(), "ms", 3);

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
