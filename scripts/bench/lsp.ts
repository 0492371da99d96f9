// The lsp module on a generated 200-file TypeScript project (each file imports the one before), with the
// real typescript-language-server over TypeScript 5.9's tsserver: how long an edit's tool call takes with
// its diagnostics, warm (the server has the project loaded) against the floor (the same edits with the
// module disabled, in the same run); how long the first edit after a cold start waits for its first
// report; and the memory of the tree at the end — `i` and its workers apart from the language servers
// (PSS, so the executable's pages shared between `i` and its workers are counted once).
// Target: warm edit with diagnostics ≤ 300 ms (the edit's own time included).
//   bun scripts/bench/lsp.ts [--edits 20] [--runs 3] [--mode compiled|source]
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { MockStep } from "../../test/fixtures/mock-server/index.ts";
import { agentArgv, benchDirs, benchMock, type Mode, parseModes, printArgs, ROOT } from "./agent-run.ts";
import { fmt, median } from "./stats.ts";

const { values } = parseArgs({
  options: {
    edits: { type: "string", default: "20" },
    runs: { type: "string", default: "3" },
    mode: { type: "string", default: "compiled" },
  },
});
const EDITS = Number(values.edits);
const RUNS = Number(values.runs);
const [MODE] = parseModes(values.mode) as [Mode];
const FILES = 200;
const TSSERVER = join(ROOT, "test/fixtures/lsp-tsserver/node_modules/typescript/lib/tsserver.js");
const BIN = join(ROOT, "node_modules/.bin");
// Without it every edit would be measured with no diagnostics at all: say so instead of printing figures.
if (!existsSync(TSSERVER)) {
  console.error(`lsp bench: ${TSSERVER} is missing (TypeScript 5.9, a dev dependency): run \`npm install\``);
  process.exit(1);
}

function project(ws: string): void {
  mkdirSync(join(ws, "src"), { recursive: true });
  writeFileSync(
    join(ws, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
  );
  for (let i = 0; i < FILES; i++) {
    const prev = i > 0 ? `import { f${i - 1} } from "./m${i - 1}";\n` : "";
    const body = i > 0 ? `f${i - 1}(n) + ${i}` : "n";
    writeFileSync(
      join(ws, "src", `m${i}.ts`),
      `${prev}export interface R${i} { id: number; name: string }\nexport function f${i}(n: number): number {\n  return ${body};\n}\nexport const v${i}: number = f${i}(1);\n`,
    );
  }
}

const TARGET = "src/m100.ts";
const BAD = 'export const v100: number = "x";';
const GOOD = "export const v100: number = f100(1);";
const edit = (from: string, to: string): MockStep => ({
  tool_calls: [{ name: "edit", arguments: { path: TARGET, old_text: from, new_text: to } }],
});

/** PSS of each process under `root`, split: language servers (node processes it started) and the rest. */
function pssSplit(root: number): { own: number; servers: number } {
  const kids = new Map<number, number[]>();
  for (const d of readdirSync("/proc").filter((x) => /^\d+$/.test(x)))
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
    } catch {}
  let own = 0;
  let servers = 0;
  const walk = (pid: number) => {
    let pss = 0;
    try {
      pss = Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? 0) * 1024;
    } catch {}
    const cmd = (() => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8");
      } catch {
        return "";
      }
    })();
    if (/typescript-language-server|tsserver/.test(cmd)) servers += pss;
    else own += pss;
    for (const k of kids.get(pid) ?? []) walk(k);
  };
  walk(root);
  return { own, servers };
}

const mock = await benchMock();

interface RunResult {
  editMs: number[];
  firstMs: number | undefined;
  /** the warm-up's `lsp diagnostics` call: start to the first report */
  firstReportMs: number | undefined;
  /** the cold run's first edit named the error it made */
  firstNamed: boolean;
  pss?: { own: number; servers: number };
  errorsSeen: number;
}

async function run(withLsp: boolean, warm: boolean): Promise<RunResult> {
  const dirs = benchDirs({ contextWindow: 1_000_000 });
  project(dirs.workspace);
  writeFileSync(
    join(dirs.configDir, "lsp.json"),
    JSON.stringify({ servers: { typescript: { initialization_options: { tsserver: { path: TSSERVER } } } } }),
  );
  if (!withLsp) writeFileSync(join(dirs.configDir, "plugins.json"), JSON.stringify({ disabled: ["lsp"] }));
  const steps: MockStep[] = [];
  if (warm)
    steps.push({ tool_calls: [{ name: "lsp", arguments: { operation: "diagnostics", file_path: TARGET } }] });
  for (let i = 0; i < EDITS; i++) steps.push(i % 2 === 0 ? edit(GOOD, BAD) : edit(BAD, GOOD));
  let pid = 0;
  let pss: RunResult["pss"];
  mock.reset((k) => {
    if (k === steps.length && withLsp) pss = pssSplit(pid);
    return steps[k] ?? { text: "done" };
  });
  const { spawn } = await import("node:child_process");
  const argv = [...agentArgv(MODE), ...printArgs(mock.url, dirs, steps.length + 2), "--json"];
  const child = spawn(argv[0] as string, argv.slice(1), {
    cwd: dirs.workspace,
    env: { ...dirs.env, PATH: `${BIN}:${dirs.env.PATH}` },
    stdio: ["ignore", "pipe", "pipe"],
  });
  pid = child.pid ?? 0;
  let out = "";
  child.stdout.on("data", (c: Buffer) => {
    out += c.toString("utf8");
  });
  const code = await new Promise<number>((r) => child.on("exit", (c) => r(c ?? -1)));
  dirs.remove();
  if (code !== 0) throw new Error(`i exited ${code}`);
  const all = out
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { type: string; name?: string; duration_ms?: number; content?: string });
  const results = all.filter((e) => e.type === "tool_result" && e.name === "edit");
  const probe = all.find((e) => e.type === "tool_result" && e.name === "lsp");
  const editMs = results.map((e) => e.duration_ms ?? 0);
  const errorsSeen = results.filter((e) => e.content?.includes("TS2322")).length;
  return {
    editMs: warm ? editMs : editMs.slice(1),
    firstMs: warm ? undefined : editMs[0],
    firstReportMs: withLsp && warm ? probe?.duration_ms : undefined,
    firstNamed: results[0]?.content?.includes("TS2322") ?? false,
    pss,
    errorsSeen,
  };
}

const warmWith: number[] = [];
const floor: number[] = [];
const cold: number[] = [];
const firstReport: number[] = [];
let coldNamed = 0;
const pssOwn: number[] = [];
const pssServers: number[] = [];
let seen = 0;
for (let r = 0; r < RUNS; r++) {
  const a = await run(true, true);
  warmWith.push(...a.editMs);
  if (a.firstReportMs !== undefined) firstReport.push(a.firstReportMs);
  seen += a.errorsSeen;
  if (a.pss) {
    pssOwn.push(a.pss.own);
    pssServers.push(a.pss.servers);
  }
  floor.push(...(await run(false, true)).editMs);
  const c = await run(true, false);
  if (c.firstMs !== undefined) cold.push(c.firstMs);
  if (c.firstNamed) coldNamed++;
}
await mock.close();
const mb = (b: number) => fmt(b / (1024 * 1024), 1);
console.log(`lsp on a ${FILES}-file TypeScript project, ${MODE}, ${RUNS} runs × ${EDITS} edits`);
console.log(
  `  edit with diagnostics (warm): median ${fmt(median(warmWith), 1)} ms; floor (module disabled, same edits): median ${fmt(median(floor), 1)} ms; added ${fmt(median(warmWith) - median(floor), 1)} ms`,
);
console.log(`  edits whose result named the error: ${seen} of ${(RUNS * EDITS) / 2}`);
console.log(
  `  first report after a cold start (lsp diagnostics, which waits for it): median ${fmt(median(firstReport), 0)} ms (${firstReport.map((x) => fmt(x, 0)).join(", ")})`,
);
console.log(
  `  first edit after a cold start (it waits at most 8 s): median ${fmt(median(cold), 0)} ms; its result named the error in ${coldNamed} of ${RUNS}`,
);
console.log(
  `  PSS at the end: i and its workers ${mb(median(pssOwn))} MB, language servers ${mb(median(pssServers))} MB`,
);
