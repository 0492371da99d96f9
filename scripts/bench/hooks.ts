// What the user's hooks cost a turn, through the real WorkerHost and the built-in hooks worker process:
//   none matching: hooks.json has hooks, none for the tools used; the hook calls of one turn with one tool
//     call (UserPromptSubmit, PreToolUse, PostToolUse, Stop, each an event the worker said at hello it has
//     nothing for, or not for this tool) against the same calls with no hooks module at all.
//   one matching PostToolUse hook (`true`): the call's time against the hook process's own run time,
//     measured as a plain `/bin/sh -c true` spawn in the same run (the floor).
// Usage: bun scripts/bench/hooks.ts [iterations]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { UserHooks } from "../../src/agent/user-hooks.ts";
import { MODULE_NAMES } from "../../src/contract/registry.ts";
import { generateManifest } from "../../src/manifest/generate.ts";
import { nowNs, runtimeName } from "../../src/runtime/runtime.ts";
import { WorkerHost } from "../../src/worker/host.ts";
import { median, report } from "./stats.ts";

const iterations = Number(process.argv[2] ?? 300);
const main = resolve(import.meta.dirname, "..", "..", "src", "cli", "main.ts");
const self = runtimeName === "deno" ? [process.execPath, "run", "-A", main] : [process.execPath, main];
const call = { id: "c1", name: "read", arguments: '{"path":"a.txt"}' };

function host(dir: string, modules: string[]): WorkerHost {
  const manifest = generateManifest({
    profile: "standard",
    configDir: dir,
    plugins: { disabled: MODULE_NAMES.filter((m) => !modules.includes(m)) },
    bindings: {},
    self,
  });
  return new WorkerHost(manifest, { workspace: dir, configDir: dir });
}

async function turnCalls(h: UserHooks): Promise<void> {
  await h.userPromptSubmit("hello");
  await h.preToolUse(call);
  await h.postToolUse(call, { content: "text", is_error: false });
  await h.stop("done", false, false);
}

async function time(n: number, once: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < Math.min(50, n); i++) await once();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = nowNs();
    await once();
    out.push(Number(nowNs() - t0) / 1e6);
  }
  return out;
}

const dir = mkdtempSync(join(tmpdir(), "i-bench-hooks-"));
const emit = () => {};
try {
  const hook = (command: string, matcher: string) => ({ matcher, hooks: [{ type: "command", command }] });
  writeFileSync(
    join(dir, "hooks.json"),
    JSON.stringify({ hooks: { PreToolUse: [hook("true", "bash")], PostToolUse: [hook("true", "edit")] } }),
  );
  // Without the hooks module the core makes no call at all: the floor of "none matching".
  const bare = host(dir, ["budget"]);
  const unmatched = host(dir, ["budget", "hooks"]);
  try {
    await unmatched.start(["hooks"]);
    const noHooks = await time(iterations * 10, () => turnCalls(new UserHooks(bare, "s", emit)));
    const none = await time(iterations * 10, () => turnCalls(new UserHooks(unmatched, "s", emit)));
    report("turn without a hooks module (ms)", noHooks, "ms", 4);
    report("turn with hooks configured, none matching (ms)", none, "ms", 4);
    console.log(
      `none matching adds ${(median(none) - median(noHooks)).toFixed(4)} ms per turn (target <= 1 ms)`,
    );
  } finally {
    await bare.close();
    await unmatched.close();
  }

  writeFileSync(join(dir, "hooks.json"), JSON.stringify({ hooks: { PostToolUse: [hook("true", "")] } }));
  const matching = host(dir, ["budget", "hooks"]);
  try {
    await matching.start(["hooks"]);
    const h = new UserHooks(matching, "s", emit);
    const post = await time(iterations, () => h.postToolUse(call, { content: "text", is_error: false }));
    const spawnOnly = await time(iterations, async () => {
      spawnSync("/bin/sh", ["-c", "true"], { input: "{}" });
    });
    report("one matching PostToolUse hook `true` (ms)", post, "ms", 3);
    report("floor: the hook's process alone, /bin/sh -c true (ms)", spawnOnly, "ms", 3);
    console.log(
      `a matching hook adds ${(median(post) - median(spawnOnly)).toFixed(3)} ms beyond its process's run time (target <= 3 ms)`,
    );
  } finally {
    await matching.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
