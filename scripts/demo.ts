// `npm run demo`: a newcomer with no API key watches a scripted multi-turn tool session run end to end.
// A local mock model (127.0.0.1) plays the model; everything else — the CLI, worker processes, tools,
// sessions — is the real thing, in a throwaway workspace.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LOGO } from "../src/console/render.ts";
import { processTerminal } from "../src/console/ui/process-terminal.ts";
import { Screen } from "../src/console/ui/screen.ts";
import { ConsoleView } from "../src/console/view.ts";
import type { AgentEvent } from "../src/contract/events.ts";
import { detectCaps, makeStyle } from "../src/terminal/style.ts";
import { startMockServer } from "../test/fixtures/mock-server/index.ts";

const root = mkdtempSync(join(tmpdir(), "i-demo-"));
const ws = join(root, "workspace");
const cfg = join(root, "config");
mkdirSync(ws, { recursive: true });
mkdirSync(cfg, { recursive: true });
writeFileSync(join(ws, "math.js"), "export function add(a, b) {\n  return a - b;\n}\n");
writeFileSync(
  join(ws, "check.mjs"),
  'import { add } from "./math.js";\nif (add(2, 3) !== 5) { console.error("FAIL: add(2, 3) =", add(2, 3)); process.exit(1); }\nconsole.log("PASS");\n',
);
writeFileSync(
  join(cfg, "config.json"),
  JSON.stringify({ models: { "demo-model": { context_window: 32000, max_output_tokens: 2048 } } }),
);

const mock = await startMockServer({
  script: [
    {
      text: "Let me look at the code first.",
      tool_calls: [{ name: "read", arguments: { path: "math.js" } }],
    },
    {
      text: "Now I'll run the check to see the failure.",
      tool_calls: [{ name: "bash", arguments: { command: "node check.mjs" } }],
    },
    {
      text: "`add` subtracts. Fixing it.",
      tool_calls: [
        {
          name: "edit",
          arguments: { path: "math.js", old_text: "return a - b;", new_text: "return a + b;" },
        },
      ],
    },
    { text: "Verifying.", tool_calls: [{ name: "bash", arguments: { command: "node check.mjs" } }] },
    {
      text: "Fixed: `add` in math.js used `-` instead of `+`. `node check.mjs` now prints PASS.",
      chunk_delay_ms: 15,
    },
  ],
});

// The console's own view renders the run's events, so the demo shows what the console shows.
const caps = detectCaps(process.stdout);
const style = makeStyle(caps);
const dim = style.dim;
const screen = new Screen(processTerminal(), caps);
const view = new ConsoleView(screen, style, {
  model: "demo-model",
  provider: "openai",
  tokensIn: 0,
  tokensOut: 0,
});
view.print(
  ...LOGO.split("\n"),
  "",
  dim(`demo workspace: ${ws}  ·  mock model: ${mock.url}`),
  "",
  "› fix the failing check",
);
const child = spawn(
  process.execPath,
  [
    join(import.meta.dirname, "..", "src", "cli", "main.ts"),
    "-p",
    "fix the failing check",
    "--json",
    "--approve",
    "all",
    "-m",
    "demo-model",
    "--base-url",
    mock.url,
    "--workspace",
    ws,
  ],
  {
    env: {
      ...process.env,
      I_CONFIG_DIR: cfg,
      I_DATA_DIR: join(root, "sessions"),
      OPENAI_API_KEY: "demo-no-key",
    },
    stdio: ["ignore", "pipe", "inherit"],
  },
);
let buf = "";
child.stdout.on("data", (chunk: Buffer) => {
  buf += chunk.toString("utf8");
  let nl = buf.indexOf("\n");
  while (nl >= 0) {
    const ev = JSON.parse(buf.slice(0, nl)) as AgentEvent;
    buf = buf.slice(nl + 1);
    nl = buf.indexOf("\n");
    view.onEvent(ev);
    if (ev.type === "done") view.turnEnded();
  }
});
const code: number = await new Promise((resolve) => child.on("close", (c) => resolve(c ?? 1)));
screen.stop();
process.stdout.write(`\n${dim("math.js is now:")}\n${readFileSync(join(ws, "math.js"), "utf8")}`);
process.stdout.write(dim(`${mock.requests.length} model requests · exit ${code}\n`));
await mock.close();
rmSync(root, { recursive: true, force: true });
process.exit(code);
