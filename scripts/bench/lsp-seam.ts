// What the lsp module costs a tool call that reaches no language server, measured in process on the real
// seam and worker host of the standard profile: the time `afterCall` takes per call against the floor (an
// afterCall that does nothing: what the dispatch pays for any seam), in the same run, interleaved.
//   bash   a one-line bash call; the lsp worker was never started (nothing it watches ran)
//   idle   an edit of notes.txt after the worker said at hello that no server can run here (PATH has none)
//   other  an edit of notes.txt when a server exists for another language only: the worker said at hello
//          which extensions its servers take, so the core leaves it out (before it did, this was a round
//          trip to the worker: 0.09 ms on a quiet machine, 0.6 ms on a loaded one)
// The compiled per-turn A/B (the same binary with and without the module) is turns.ts --without lsp.
//   bun scripts/bench/lsp-seam.ts [--calls 20000] [--runs 5]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runWorkerHost } from "../../src/agent/child-prestart.ts";
import { lspAfterCall } from "../../src/agent/lsp-seam.ts";
import type { ToolResult } from "../../src/contract/protocol.ts";
import { generateManifest } from "../../src/manifest/generate.ts";
import type { ToolCallInfo } from "../../src/tools/dispatch.ts";
import type { WorkerHost } from "../../src/worker/host.ts";
import { ROOT } from "./agent-run.ts";
import { fmt, median } from "./stats.ts";

const { values } = parseArgs({
  options: { calls: { type: "string", default: "20000" }, runs: { type: "string", default: "5" } },
});
const CALLS = Number(values.calls);
const RUNS = Number(values.runs);
// Only system directories: no language server of the built-in definitions is found there.
process.env.PATH = "/usr/bin:/bin";
// Built-in workers re-run the entry script (`ENTRY worker lsp`): make that this tree's CLI, not this file.
process.argv[1] = join(ROOT, "src", "cli", "main.ts");

const root = mkdtempSync(join(tmpdir(), "i-bench-lsp-seam-"));
type Seam = (info: ToolCallInfo, result: ToolResult) => Promise<ToolResult | undefined>;

function setup(name: string, lspJson?: unknown): { host: WorkerHost; seam: Seam; workspace: string } {
  const cfg = join(root, name, "cfg");
  const workspace = join(root, name, "ws");
  for (const d of [cfg, workspace]) mkdirSync(d, { recursive: true });
  writeFileSync(join(workspace, "notes.txt"), "a note\n");
  if (lspJson) writeFileSync(join(cfg, "lsp.json"), JSON.stringify(lspJson));
  const manifest = generateManifest({ profile: "standard", configDir: cfg, plugins: {}, bindings: {} });
  const host = runWorkerHost(manifest, cfg, workspace, {});
  const seam = lspAfterCall(host, workspace, () => {});
  if (!seam) throw new Error("the standard profile has no files_changed hook");
  return { host, seam, workspace };
}

const call = (name: string, args: unknown): ToolCallInfo => ({
  id: "c1",
  name,
  kind: "core",
  owner: "core",
  args,
  mayChange: name !== "read",
});
const result: ToolResult = { content: "ok", is_error: false };
const floor: Seam = async () => undefined;

/** Mean time of one seam call over `n` calls, µs. */
async function perCall(seam: Seam, info: ToolCallInfo, n: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await seam(info, result);
  return ((performance.now() - t0) * 1000) / n;
}

const bash = setup("bash");
const idle = setup("idle");
await idle.host.start(["lsp"]);
// A server for .fk files whose command exists (it never starts: no .fk file is touched).
const fake = join(ROOT, "test/lsp/fixtures/fake-server.mjs");
const other = setup("other", {
  servers: { fake: { command: process.execPath, args: [fake, "ok"], extensions: [".fk"] } },
});
await other.host.start(["lsp"]);

const bashCall = call("bash", { command: "echo turn 1" });
const cases: [string, Seam, ToolCallInfo, number][] = [
  ["bash", bash.seam, bashCall, CALLS],
  ["idle", idle.seam, call("edit", { path: "notes.txt", old_text: "a", new_text: "b" }), CALLS],
  ["other", other.seam, call("edit", { path: "notes.txt", old_text: "a", new_text: "b" }), CALLS],
];
try {
  for (const [, seam, info, n] of cases) await perCall(seam, info, n / 10); // warm up
  const got = new Map<string, number[]>(cases.map(([name]) => [name, []]));
  const floors: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    floors.push(await perCall(floor, bashCall, CALLS));
    for (const [name, seam, info, n] of cases) got.get(name)?.push(await perCall(seam, info, n));
  }
  const f = median(floors);
  console.log(`lsp seam per tool call, median of ${RUNS} runs (floor: a seam that does nothing)`);
  console.log(`  floor  ${fmt(f, 3)} µs`);
  for (const [name, , , n] of cases) {
    const m = median(got.get(name) ?? []);
    console.log(
      `  ${name.padEnd(5)}  ${fmt(m, 3)} µs  (${fmt(m - f, 3)} µs over the floor; ${n} calls a run)`,
    );
  }
} finally {
  await Promise.all([bash.host.close(), idle.host.close(), other.host.close()]);
  rmSync(root, { recursive: true, force: true });
}
