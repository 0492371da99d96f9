// Console figures: how soon the console is ready for input (process start → the input line drawn in a
// pseudo-terminal; typing is taken from then on, while the engine still starts) and how soon setup is
// done (workers up, status line), with `i --version` in the same run as the floor; and
// what rendering costs: a markdown reply streamed in small pieces through the real view and screen.
// Usage: bun scripts/bench/console.ts [runs] [--source] [--against OTHER_I …] [--no-render]
// (default: the compiled binary, built if missing). --against adds another build's compiled `i` (an
// A/B: each run starts every binary in turn, each with its own `i --version` floor); --no-render skips
// the rendering figures.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { arch, platform, tmpdir } from "node:os";
import { join } from "node:path";
import { processTerminal, type TerminalLike } from "../../src/console/ui/process-terminal.ts";
import { Screen } from "../../src/console/ui/screen.ts";
import { ConsoleView } from "../../src/console/view.ts";
import { setJitReluctance } from "../../src/runtime/runtime.ts";
import { makeStyle } from "../../src/terminal/style.ts";
import { JIT_POLICY } from "../jit-policy.ts";
import { report } from "./stats.ts";

const root = join(import.meta.dirname, "..", "..");
const fromSource = process.argv.includes("--source");
const runs = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 20);
const against = process.argv.flatMap((a, i) => (process.argv[i - 1] === "--against" ? [a] : []));
const os = platform() === "win32" ? "windows" : platform();
const bin = join(root, "dist", `i-${os}-${arch()}`, os === "windows" ? "i.exe" : "i");
if (!fromSource && !existsSync(bin))
  spawnSync(process.execPath, ["scripts/build.ts"], { cwd: root, stdio: "inherit" });
const argv0 = fromSource ? process.execPath : bin;
const pre = fromSource ? [join(root, "src", "cli", "main.ts")] : [];

const dir = mkdtempSync(join(tmpdir(), "i-bench-console-"));
const ws = join(dir, "ws");
mkdirSync(ws, { recursive: true });
mkdirSync(join(dir, "cfg"), { recursive: true });
writeFileSync(
  join(dir, "cfg", "config.json"),
  JSON.stringify({ models: { "bench-model": { context_window: 100000 } } }),
);
// The key in auth.json, and (measured separately) in the environment, which `i` first scrubs from its
// own process (so children cannot read it from /proc).
writeFileSync(join(dir, "cfg", "auth.json"), JSON.stringify({ openai: "bench-not-a-key" }), { mode: 0o600 });
const baseEnv: NodeJS.ProcessEnv = {
  ...process.env,
  I_CONFIG_DIR: join(dir, "cfg"),
  I_DATA_DIR: join(dir, "data"),
  HOME: dir,
};
for (const k of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "I_API_KEY"]) delete baseEnv[k];
let env = baseEnv;
const args = ["-m", "bench-model", "--base-url", "http://127.0.0.1:9", "--workspace", ws];

const q = (a: string) => `'${a.replace(/'/g, "'\\''")}'`;

/**
 * One console start in a pseudo-terminal (util-linux `script`): milliseconds until the input line is
 * drawn (keys typed from then on are taken) and until setup is done (the status line with the model).
 */
function startOnce(bin: readonly string[]): Promise<{ input: number; setup: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const cmd = [...bin, ...args].map(q).join(" ");
    const child = spawn("script", ["-qfec", cmd, "/dev/null"], {
      env: { ...env, TERM: "xterm-256color" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let input = 0;
    let setup = 0;
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString("utf8");
      if (!input && out.includes("\u203a")) input = performance.now() - t0;
      if (!setup && out.includes("\u21910")) {
        setup = performance.now() - t0;
        child.stdin.write("/exit\r");
      }
    });
    child.on("close", (code) => {
      if (input && setup) resolve({ input, setup });
      else reject(new Error(`console exited ${code} before it was ready:\n${out}`));
    });
  });
}

function versionOnce(bin: readonly string[]): number {
  const t0 = performance.now();
  const [file, ...rest] = bin as [string, ...string[]];
  const r = spawnSync(file, [...rest, "--version"]);
  if (r.status !== 0) throw new Error("i --version failed");
  return performance.now() - t0;
}

const targets = [
  { what: fromSource ? "bun src/cli/main.ts" : "compiled", bin: [argv0, ...pre] },
  ...against.map((b) => ({ what: b, bin: [b] })),
];
const withEnvKey = { ...baseEnv, OPENAI_API_KEY: "bench-not-a-key" };
const figures = targets.map(() => ({
  input: [] as number[],
  inputEnvKey: [] as number[],
  setup: [] as number[],
  floor: [] as number[],
}));
for (const t of targets) {
  await startOnce(t.bin);
  versionOnce(t.bin);
}
for (let i = 0; i < runs; i++) {
  // Every binary in turn, the order rotated so a slow phase of the machine does not always hit one.
  const order = targets.map((_, k) => (k + i) % targets.length);
  for (const k of order) {
    const t = targets[k] as (typeof targets)[number];
    const f = figures[k] as (typeof figures)[number];
    f.floor.push(versionOnce(t.bin));
    env = baseEnv;
    const r = await startOnce(t.bin);
    f.input.push(r.input);
    f.setup.push(r.setup);
    env = withEnvKey;
    f.inputEnvKey.push((await startOnce(t.bin)).input);
  }
}
targets.forEach((t, k) => {
  const f = figures[k] as (typeof figures)[number];
  report(`console ready for input: input line drawn (${t.what}, in a pty, key in auth.json)`, f.input, "ms");
  report(`console ready for input, key in the environment (${t.what})`, f.inputEnvKey, "ms");
  report(`console setup done: workers up, status line drawn (${t.what})`, f.setup, "ms");
  report(`floor: i --version (${t.what}, same run)`, f.floor, "ms");
});
rmSync(dir, { recursive: true, force: true });
if (process.argv.includes("--no-render")) process.exit(0);

// Rendering: a long markdown reply in 8-character deltas through the view, drawing every frame into a
// terminal that discards the output (the cost is ours, not the terminal's).
const doc = Array.from({ length: 40 }, (_, i) =>
  [
    `## Section ${i}`,
    "",
    `Some **bold** text, \`code\`, and a [link](https://example.com/${i}) in a paragraph long enough to wrap.`,
    "",
    "- one\n- two\n- three",
    "",
    "```ts\nconst x: number = 42; // a comment\nfunction f(a: string) { return a.length; }\n```",
    "",
    "| a | b |\n|---|---|\n| 1 | 2 |",
  ].join("\n"),
).join("\n\n");
const sink: TerminalLike = {
  ...processTerminal(),
  write: () => {},
  columns: 100,
  rows: 40,
  onResize: () => () => {},
};
const caps = { color: true, cursor: true };
// The compiled console renders under the build's JIT policy: measure it under the same one.
setJitReluctance(JIT_POLICY);
const frames: number[] = [];
const totals: number[] = [];
for (let run = 0; run < 5; run++) {
  const screen = new Screen(sink, caps);
  const view = new ConsoleView(screen, makeStyle(caps), {
    model: "m",
    provider: "p",
    tokensIn: 0,
    tokensOut: 0,
  });
  const t0 = performance.now();
  view.onEvent({ type: "turn_start", turn: 1 });
  for (let i = 0; i < doc.length; i += 8) {
    view.onEvent({ type: "text_delta", text: doc.slice(i, i + 8) });
    const f0 = performance.now();
    screen.flush();
    frames.push(performance.now() - f0);
  }
  view.turnEnded();
  screen.stop();
  totals.push(performance.now() - t0);
}
report(
  `render: ${Math.round(doc.length / 1024)} KB markdown reply in 8-char deltas, whole reply`,
  totals,
  "ms",
);
report("render: one frame (a delta drawn)", frames, "ms", 3);
