// One hook round trip between the core (WorkerHost) and a built-in worker process (`i worker cache`, started
// with the running runtime + src/cli/main.ts), many iterations after a warm-up. For context it also measures
// the floor of this machine: the same NDJSON line echoed through /bin/cat (no protocol work on either side
// beyond framing), so a slow figure can be told apart from slow pipes. Usage:
//   bun scripts/bench/hook-roundtrip.ts [iterations] [warmup]
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { MAX_LINE_BYTES } from "../../src/contract/protocol.ts";
import { MODULE_NAMES } from "../../src/contract/registry.ts";
import { LineDecoder } from "../../src/lib/framing.ts";
import { generateManifest } from "../../src/manifest/generate.ts";
import { nowNs, runtimeName } from "../../src/runtime/runtime.ts";
import { WorkerHost } from "../../src/worker/host.ts";
import { report } from "./stats.ts";

const iterations = Number(process.argv[2] ?? 5000);
const warmup = Number(process.argv[3] ?? 500);
const main = resolve(import.meta.dirname, "..", "..", "src", "cli", "main.ts");

/** A typical small request: system prompt and a few turns, as the core sends before each model call. */
const data = {
  provider: "anthropic",
  model: "claude-sonnet",
  messages: [
    { role: "system", content: "You are a coding agent. ".repeat(20) },
    ...Array.from({ length: 8 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: `message ${i}: please look at src/file${i}.ts`,
    })),
  ],
};

async function timeLoop(once: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await once();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = nowNs();
    await once();
    samples.push(Number(nowNs() - t0) / 1000);
  }
  return samples;
}

async function hostRoundTrip(configDir: string): Promise<number[]> {
  const manifest = generateManifest({
    profile: "full",
    configDir,
    plugins: { disabled: MODULE_NAMES.filter((m) => m !== "cache") },
    bindings: {},
    self: runtimeName === "deno" ? [process.execPath, "run", "-A", main] : [process.execPath, main],
  });
  const host = new WorkerHost(manifest, { workspace: configDir, configDir });
  try {
    const out = await host.runHook("before_request", data);
    if (!(out.hints as { cache_breakpoints?: unknown } | undefined)?.cache_breakpoints)
      throw new Error("the cache worker did not answer as expected");
    return await timeLoop(() => host.runHook("before_request", data));
  } finally {
    await host.close();
  }
}

/** The same line through a process that only copies stdin to stdout. */
async function pipeFloor(): Promise<number[] | undefined> {
  if (!existsSync("/bin/cat")) return undefined;
  const cat = spawn("/bin/cat", [], { stdio: ["pipe", "pipe", "ignore"] });
  let waiting: (() => void) | undefined;
  const decoder = new LineDecoder(
    MAX_LINE_BYTES,
    (line) => {
      JSON.parse(line);
      waiting?.();
    },
    () => {},
  );
  cat.stdout.on("data", (c: Uint8Array) => decoder.push(c));
  let id = 0;
  const once = () =>
    new Promise<void>((done) => {
      waiting = done;
      cat.stdin.write(`${JSON.stringify({ id: id++, event: "before_request", workspace: "/w", data })}\n`);
    });
  try {
    return await timeLoop(once);
  } finally {
    cat.kill("SIGKILL");
  }
}

const dir = mkdtempSync(join(tmpdir(), "i-bench-hook-"));
try {
  console.log(
    `hook round trip, ${iterations} iterations after ${warmup} warm-up, ${data.messages.length}-message data`,
  );
  report("WorkerHost → `i worker cache` → WorkerHost", await hostRoundTrip(dir), "µs", 1);
  const floor = await pipeFloor();
  if (floor) report("pipe floor: same line echoed by /bin/cat", floor, "µs", 1);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
