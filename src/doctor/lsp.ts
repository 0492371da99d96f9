// `i doctor`, language-server part: one row per server found on PATH (or configured in lsp.json) — its
// version, the time from start to the answer to `initialize`, and one more round trip (`shutdown`) — each
// started in the workspace, in a process group of its own that is killed afterwards. A configured server
// that fails is a failed check; a built-in one found on PATH that fails is said, not counted (the user
// did not ask for it, and a session only says it once).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { errorMessage } from "../contract/errors.ts";
import { INHERITED_VARS } from "../lib/env-allow-list.ts";
import { type LspServerDef, loadLspServers, resolveCommand } from "../lib/lsp-config.ts";
import { sanitizeLine } from "../terminal/sanitize.ts";
import { count, type Line, Table } from "./report.ts";

const INITIALIZE_MS = 10_000;
const ms = (v: number) => (v < 10 ? `${v.toFixed(2)} ms` : `${v.toFixed(0)} ms`);

interface Probe {
  version: string;
  startMs: number;
  roundTripMs: number;
}

function env(def: LspServerDef): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of INHERITED_VARS) if (process.env[k] !== undefined) out[k] = process.env[k] as string;
  return { ...out, ...def.env };
}

function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    p,
    new Promise<never>((_r, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer to ${what} within ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function killGroup(proc: ChildProcess): void {
  try {
    if (proc.pid && process.platform !== "win32") process.kill(-proc.pid, "SIGKILL");
    else proc.kill("SIGKILL");
  } catch {}
}

/** What `PROGRAM --version` says in one line, when it says it at once and succeeds (not every server does). */
function versionOf(program: string, def: LspServerDef): string {
  const r = spawnSync(program, ["--version"], { env: env(def), timeout: 2_000, encoding: "utf8" });
  const line = r.status === 0 ? (r.stdout ?? "").trim().split("\n")[0]?.trim() : undefined;
  return line && line.length <= 80 ? line : "-";
}

async function probe(def: LspServerDef, argv: string[], workspace: string): Promise<Probe> {
  const proto = await import("vscode-languageserver-protocol/node");
  const started = performance.now();
  const proc = spawn(argv[0] as string, argv.slice(1), {
    cwd: workspace,
    env: env(def),
    stdio: ["pipe", "pipe", "ignore"],
    detached: process.platform !== "win32",
  });
  const failed = new Promise<never>((_r, reject) => {
    proc.once("error", (e) => reject(new Error(`could not be started (${e.message})`)));
    proc.once("exit", (code, signal) =>
      reject(new Error(`exited (${signal ? `signal ${signal}` : `code ${code}`}) before answering`)),
    );
  });
  failed.catch(() => {});
  const conn = proto.createProtocolConnection(
    new proto.StreamMessageReader(proc.stdout as NodeJS.ReadableStream),
    new proto.StreamMessageWriter(proc.stdin as NodeJS.WritableStream),
  );
  conn.onError(() => killGroup(proc));
  conn.listen();
  try {
    const root = pathToFileURL(workspace).href;
    const init = await within(
      Promise.race([
        conn.sendRequest(proto.InitializeRequest.type, {
          processId: process.pid,
          rootUri: root,
          workspaceFolders: [{ uri: root, name: workspace }],
          capabilities: {},
          initializationOptions: def.initializationOptions ?? null,
        }),
        failed,
      ]),
      INITIALIZE_MS,
      "initialize",
    );
    const startMs = performance.now() - started;
    const t = performance.now();
    await within(Promise.race([conn.sendRequest("shutdown"), failed]), INITIALIZE_MS, "shutdown");
    const info = init.serverInfo;
    return {
      version: info?.version
        ? `${info.name ?? ""} ${info.version}`.trim()
        : versionOf(argv[0] as string, def),
      startMs,
      roundTripMs: performance.now() - t,
    };
  } finally {
    conn.dispose();
    killGroup(proc);
  }
}

export async function lspRows(
  configDir: string,
  workspace: string,
): Promise<{ lines: Line[]; failed: number }> {
  const loaded = loadLspServers(configDir, workspace);
  const defs = loaded.servers.filter((d) => !d.disabled);
  const found = defs.map((d) => ({ def: d, argv: resolveCommand(d) }));
  const missing = found.filter((f) => !f.argv);
  const runnable = found.filter((f): f is { def: LspServerDef; argv: string[] } => f.argv !== undefined);
  const lines: Line[] = [];
  let failed = 0;
  const causes: string[] = [...loaded.problems];
  if (runnable.length) {
    const results = await Promise.all(
      runnable.map(({ def, argv }) =>
        probe(def, argv, workspace).then(
          (p) => ({ def, argv, p }),
          (err: unknown) => ({ def, argv, err: errorMessage(err) }),
        ),
      ),
    );
    const table = [["SERVER", "STATUS", "VERSION", "START", "ROUND TRIP", "COMMAND"]];
    for (const r of results) {
      const configured = r.def.source !== "built-in";
      if ("err" in r) {
        if (configured) failed++;
        causes.push(
          `${r.def.name}: ${r.err}${configured ? "" : " (a built-in server found on PATH: sessions say so once; lsp.json can disable it)"}`,
        );
      }
      table.push([
        r.def.name,
        "p" in r ? "ok" : configured ? "FAILED" : "not working",
        "p" in r ? r.p.version || versionOf(r.argv[0] as string, r.def) : "-",
        "p" in r ? ms(r.p.startMs) : "-",
        "p" in r ? ms(r.p.roundTripMs) : "-",
        r.argv.join(" "),
      ]);
    }
    lines.push(
      `language servers: ${count(runnable.length, "server")} found`,
      new Table(table.map((row) => row.map((c) => sanitizeLine(c)))),
    );
  } else lines.push("language servers: none found on PATH (lsp.json adds servers)");
  for (const m of missing)
    if (m.def.source !== "built-in") {
      failed++;
      causes.push(
        `${m.def.name}: command "${m.def.commands[0]?.[0]}" (${m.def.source}) was not found on PATH`,
      );
    }
  const absent = missing.filter((m) => m.def.source === "built-in").map((m) => m.def.name);
  if (absent.length) lines.push(`not on PATH: ${absent.join(", ")}`);
  if (loaded.projectUntrusted) causes.push(`.i/lsp.json is not accepted for this workspace: \`i trust\``);
  lines.push(...causes.map((c) => sanitizeLine(c)));
  return { lines, failed };
}
