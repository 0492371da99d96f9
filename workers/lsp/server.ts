// One language server process for one project root: start and initialize it, keep what it publishes, sync
// documents to it, and notice when it goes. A server that exits or speaks garbage counts as a crash and is
// started again on the next change; the third crash, or no answer to initialize, leaves it failed for the
// session. It stays in the worker's process group, so nothing it starts outlives the worker.
import { type ChildProcess, spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { INHERITED_VARS, WINDOWS_VARS } from "../../src/lib/env-allow-list.ts";
import type { LspServerDef } from "../../src/lib/lsp-config.ts";
import { openServerLog, type ServerLog } from "./log.ts";
import {
  type Diagnostic,
  loadProtocol,
  type ProtocolConnection,
  type ServerCapabilities,
} from "./protocol.ts";

export type ServerState = "starting" | "ready" | "crashed" | "failed" | "stopped";

export const INITIALIZE_TIMEOUT_MS = 15_000;
export const MAX_CRASHES = 3;
/** Diagnostics kept per file: a server that floods cannot fill the worker's memory. */
const MAX_PER_FILE = 500;

export interface Published {
  version: number | undefined;
  items: Diagnostic[];
  /** increases with every publish this server sends (any file) */
  seq: number;
}

export interface ServerOptions {
  def: LspServerDef;
  argv: string[];
  root: string;
  configDir: string;
  /** a line the user should see once */
  notice(line: string): void;
}

/** The worker's allow-list (no credentials), the login variables a server may want, and its own env. */
function serverEnv(def: LspServerDef): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...INHERITED_VARS, ...WINDOWS_VARS, "LOGNAME", "SHELL", "I_WORKSPACE"]) {
    const v = process.env[name];
    if (v !== undefined) env[name] = v;
  }
  return { ...env, ...def.env };
}

/** The value of a dotted `section` of the configured settings (workspace/configuration). */
function settingOf(settings: Record<string, unknown> | undefined, section: string | undefined): unknown {
  if (!settings) return null;
  if (!section) return settings;
  if (section in settings) return settings[section];
  let v: unknown = settings;
  for (const part of section.split(".")) {
    if (!v || typeof v !== "object") return null;
    v = (v as Record<string, unknown>)[part];
  }
  return v ?? null;
}

export class LspServer {
  state: ServerState = "stopped";
  crashes = 0;
  capabilities: ServerCapabilities = {};
  /** what the server said it is at initialize */
  info: { name?: string; version?: string } = {};
  initializeMs: number | undefined;
  readonly published = new Map<string, Published>();
  /** documents open in this server: uri → version and text */
  readonly open = new Map<string, { version: number; text: string }>();
  private seq = 0;
  private conn: ProtocolConnection | undefined;
  private proc: ChildProcess | undefined;
  private log: ServerLog | undefined;
  private ready: Promise<boolean> | undefined;
  private closing = false;
  private lastError: string | undefined;
  private readonly waiters = new Set<() => void>();

  constructor(private readonly opts: ServerOptions) {}

  get name(): string {
    return this.opts.def.name;
  }
  get root(): string {
    return this.opts.root;
  }
  get command(): string {
    return this.opts.argv.join(" ");
  }
  get logPath(): string | undefined {
    return this.log?.path;
  }

  /** Started and initialized (true), or not available (false); starts it when it is not running. */
  ensure(): Promise<boolean> {
    if (this.state === "failed") return Promise.resolve(false);
    if (this.state === "ready" || this.state === "starting") return this.ready ?? Promise.resolve(false);
    this.ready = this.start();
    return this.ready;
  }

  private async start(): Promise<boolean> {
    this.state = "starting";
    this.open.clear();
    this.published.clear();
    this.lastError = undefined;
    const { def, argv, root } = this.opts;
    const started = Date.now();
    const proto = await loadProtocol();
    this.log ??= openServerLog(this.opts.configDir, def.name);
    let proc: ChildProcess;
    try {
      proc = spawn(argv[0] as string, argv.slice(1), {
        cwd: root,
        env: serverEnv(def),
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (err) {
      return this.fail(`could not be started: ${(err as Error).message}`);
    }
    this.proc = proc;
    proc.stderr?.on("data", (chunk: Buffer) => this.log?.write(chunk));
    const spawnError = new Promise<string>((resolve) => proc.once("error", (e) => resolve(e.message)));
    proc.once("exit", (code, signal) => this.exited(proc, code, signal));
    const conn = proto.createProtocolConnection(
      new proto.StreamMessageReader(proc.stdout as NodeJS.ReadableStream),
      new proto.StreamMessageWriter(proc.stdin as NodeJS.WritableStream),
    );
    this.conn = conn;
    conn.onError(([err]) => {
      // Output that is not LSP framing: the server is of no use; its exit is counted as a crash.
      this.lastError ??= `it wrote something that is not LSP (${err.message.slice(0, 120)})`;
      if (this.proc === proc) proc.kill("SIGKILL");
    });
    conn.onClose(() => {
      if (this.proc === proc && !this.closing) proc.kill("SIGKILL");
    });
    conn.onNotification(proto.PublishDiagnosticsNotification.type, (p) => this.onPublish(p));
    // What the server says of itself goes to its log, with its stderr.
    conn.onNotification(proto.LogMessageNotification.type, (p) => this.log?.write(`${p.message}\n`));
    conn.onNotification(proto.ShowMessageNotification.type, (p) => this.log?.write(`${p.message}\n`));
    conn.onRequest(proto.ConfigurationRequest.type, (p) =>
      p.items.map((i) => settingOf(def.settings, i.section)),
    );
    conn.onRequest(proto.RegistrationRequest.type, () => {});
    conn.onRequest(proto.UnregistrationRequest.type, () => {});
    conn.onRequest(proto.WorkDoneProgressCreateRequest.type, () => {});
    conn.onRequest(proto.WorkspaceFoldersRequest.type, () => [{ uri: pathToFileURL(root).href, name: root }]);
    conn.onRequest(proto.ShowMessageRequest.type, () => null);
    conn.onRequest(proto.ApplyWorkspaceEditRequest.type, () => ({ applied: false }));
    conn.listen();
    const init = conn.sendRequest(proto.InitializeRequest.type, {
      processId: process.pid,
      rootUri: pathToFileURL(root).href,
      workspaceFolders: [{ uri: pathToFileURL(root).href, name: root }],
      clientInfo: { name: "i" },
      capabilities: {
        workspace: { configuration: true, workspaceFolders: true },
        textDocument: {
          synchronization: { didSave: true, dynamicRegistration: false },
          publishDiagnostics: {
            relatedInformation: false,
            versionSupport: true,
            codeDescriptionSupport: false,
          },
          diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
          definition: { linkSupport: true },
          implementation: { linkSupport: true },
          references: {},
          hover: { contentFormat: ["plaintext", "markdown"] },
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
        },
        window: { workDoneProgress: false },
      },
      initializationOptions: def.initializationOptions ?? null,
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const outcome = await Promise.race([
      init.then((r) => ({ ok: r })),
      spawnError.then((e) => ({ spawn: e })),
      new Promise<{ exited: true }>((resolve) => proc.once("exit", () => resolve({ exited: true }))),
      new Promise<{ timeout: true }>((resolve) => {
        timer = setTimeout(() => resolve({ timeout: true }), INITIALIZE_TIMEOUT_MS);
      }),
    ]).catch((err: Error) => ({ rejected: err.message }));
    clearTimeout(timer);
    if ("ok" in outcome) {
      this.capabilities = outcome.ok.capabilities;
      if (outcome.ok.serverInfo) this.info = outcome.ok.serverInfo;
      conn.sendNotification(proto.InitializedNotification.type, {});
      this.initializeMs = Date.now() - started;
      this.state = "ready";
      return true;
    }
    if ("spawn" in outcome) return this.fail(`could not be started (${outcome.spawn})`);
    if ("timeout" in outcome)
      return this.fail(`did not answer initialize within ${INITIALIZE_TIMEOUT_MS / 1000} s`);
    // It exited (or broke the connection) before answering: a crash, retried on the next change.
    await new Promise((r) => setTimeout(r, 20));
    if (this.state === "starting") this.crashed(this.lastError ?? "it exited before answering initialize");
    return false;
  }

  private fail(why: string): false {
    this.state = "failed";
    this.kill();
    this.opts.notice(
      `lsp: ${this.name} (${this.opts.argv[0]}) ${why}; it stays off for this session${this.logHint()}`,
    );
    this.wake();
    return false;
  }

  private logHint(): string {
    return this.log ? `; its stderr is in ${this.log.path}` : "";
  }

  private exited(proc: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.proc !== proc) return;
    this.proc = undefined;
    this.conn?.dispose();
    this.conn = undefined;
    if (this.closing || this.state === "failed") return;
    this.crashed(this.lastError ?? `it exited (${signal ? `signal ${signal}` : `code ${code}`})`);
  }

  private crashed(why: string): void {
    this.crashes++;
    this.open.clear();
    if (this.crashes >= MAX_CRASHES) {
      this.fail(`stopped ${this.crashes} times (last: ${why})`);
      return;
    }
    this.state = "crashed";
    this.opts.notice(
      `lsp: ${this.name} stopped: ${why}; it is started again on the next change${this.logHint()}`,
    );
    this.wake();
  }

  private onPublish(p: { uri: string; version?: number; diagnostics: Diagnostic[] }): void {
    this.seq++;
    this.published.set(p.uri, {
      version: p.version,
      items: p.diagnostics.slice(0, MAX_PER_FILE),
      seq: this.seq,
    });
    this.wake();
  }

  /** The number of publishes so far: what a wait compares against. */
  get publishSeq(): number {
    return this.seq;
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Resolves at the next publish (or state change), or after `ms`. */
  nextEvent(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.waiters.add(done);
    });
  }

  /** A request answered within `timeoutMs`, or an Error saying which server did not answer what. */
  async request<R>(method: string, params: unknown, timeoutMs: number): Promise<R> {
    const conn = this.conn;
    if (!conn || this.state !== "ready") throw new Error(`lsp: ${this.name} is ${this.state}`);
    const proto = await loadProtocol();
    const source = new proto.CancellationTokenSource();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_r, reject) => {
      timer = setTimeout(() => {
        source.cancel();
        reject(new Error(`lsp: ${this.name} did not answer ${method} within ${timeoutMs / 1000} s`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([conn.sendRequest(method, params, source.token) as Promise<R>, timeout]);
    } finally {
      clearTimeout(timer);
      source.dispose();
    }
  }

  notify(method: string, params: unknown): void {
    if (this.state === "ready") void this.conn?.sendNotification(method, params).catch(() => {});
  }

  private kill(): void {
    try {
      this.proc?.kill("SIGKILL");
    } catch {}
  }

  /** Ask it to shut down, briefly; then it is killed (the worker's group kill takes anything left). */
  async close(): Promise<void> {
    this.closing = true;
    const conn = this.conn;
    if (conn && this.state === "ready") {
      const bye = conn.sendRequest("shutdown").then(() => conn.sendNotification("exit"));
      await Promise.race([bye.catch(() => {}), new Promise((r) => setTimeout(r, 300))]);
    }
    this.kill();
    this.state = "stopped";
    this.log?.end();
  }
}
