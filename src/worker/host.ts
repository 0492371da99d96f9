// The worker host: runs the manifest's modules as persistent worker processes for the agent core. Processes
// start lazily on the first event that needs them; built-in modules that share an exec share one process (the
// request's `module` field says which one an event is for), a bound module always runs alone. There is no
// fallback: a failed worker fails the request, and the next request starts a fresh process.
import { join, resolve } from "node:path";
import { ensurePrivateDir } from "../config/paths.ts";
import { describeIssue, UserError } from "../contract/errors.ts";
import { HOOKS, type HookReply } from "../contract/hooks.ts";
import type { Manifest, ManifestModule } from "../contract/manifest.ts";
import {
  DEFAULT_DEADLINE_MS,
  HelloReplyData,
  type HookEvent,
  type PayloadForm,
  PROTOCOL_VERSION,
  SUMMARISABLE,
  TOOL_CANCEL_EVENT,
  type ToolDecl,
  type ToolResult,
} from "../contract/protocol.ts";
import { MODULES, type ModuleName, toolSpec } from "../contract/registry.ts";
import {
  RESOURCE_EVENT,
  type ResourceContent,
  ResourceReplyData,
  type RuntimeResourceDecl,
} from "../contract/runtime-resources.ts";
import {
  CANCEL_EVENT,
  type GroupStatus,
  PROMPT_EVENT,
  PromptReplyData,
  type RuntimePromptDecl,
  type RuntimeToolDecl,
  TOOLS_EVENT,
  TOOLS_WATCH_EVENT,
  ToolsReplyData,
  ToolsWatchReplyData,
} from "../contract/runtime-tools.ts";
import { log, logOn } from "../lib/log.ts";
import { startupMark } from "../lib/startup-trace.ts";
import { declarationDifference } from "./declarations.ts";
import { BUILTIN_WORKER_ENV, workerEnv } from "./env.ts";
import { WorkerError } from "./errors.ts";
import { summarizeHistory } from "./history-summary.ts";
import { type CompiledHookOptions, compileHookOptions, skipsHook } from "./hook-options.ts";
import { keptFieldProblem } from "./kept-fields.ts";
import { LogSink } from "./log-sink.ts";
import { type Data, type ReplyCheck, type RequestOptions, WorkerProcess } from "./process.ts";
import { RuntimeToolTable } from "./runtime-tools.ts";
import type { HookData, HookOptions, HookRunner, ToolCallOptions } from "./types.ts";

export { WorkerError } from "./errors.ts";

export interface WorkerHostOptions {
  /** absolute workspace path sent with every request and as I_WORKSPACE */
  workspace: string;
  configDir: string;
  /** per-request deadline; default DEFAULT_DEADLINE_MS */
  deadlineMs?: number;
  /** deadline of each worker's hello, which includes the process starting; default deadlineMs */
  helloDeadlineMs?: number;
  /** where worker stderr logs go; default `<configDir>/logs` */
  logDir?: string;
  /** the environment the allow-list picks from; default process.env */
  env?: NodeJS.ProcessEnv;
  /** longest line either way; default MAX_LINE_BYTES (tests lower it) */
  maxLineBytes?: number;
  /** told of every process the host starts, with the modules it serves (tests record pids and respawns) */
  observer?: (proc: WorkerProcess, modules: readonly ModuleName[]) => void;
  /** tool names no module may declare at run time (the core tools) */
  reservedToolNames?: readonly string[];
  /** added to the environment of the process of this module alone (a module running by itself) */
  moduleEnv?: Partial<Record<ModuleName, Record<string, string>>>;
}

/** What a runtime-tools refresh brought: lines for the user, and each module's status per group. */
export interface RuntimeRefresh {
  notices: string[];
  /** some module's list changed since the last refresh */
  changed: boolean;
  status: Partial<Record<ModuleName, Record<string, GroupStatus>>>;
}

/** A runtime tool's call may run this much past its own deadline before the host gives up on the worker. */
const RUNTIME_CALL_GRACE_MS = 5_000;
/** The `tools` poll: how long a module may wait for tools still on their way (well inside the deadline). */
export const TOOLS_WAIT_MS = 12_000;
/** A `tools_watch` answered later than its own wait by this much means the module hangs. */
const WATCH_GRACE_MS = 10_000;

/** One worker process as the manifest describes it: the modules it serves, how to start it. */
interface Group {
  key: string;
  exec: string[];
  cwd: string;
  builtin: boolean;
  modules: ModuleName[];
}

interface Slot {
  proc: WorkerProcess;
  /** resolves once every module of the process has passed its handshake */
  ready: Promise<WorkerProcess>;
  ok: boolean;
}

const NONE: readonly ModuleName[] = [];

/** How long `close()` lets a worker finish after its stdin closes before it is killed. */
const CLOSE_GRACE_MS = 300;

function groupsOf(manifest: Manifest): Map<ModuleName, Group> {
  const byKey = new Map<string, Group>();
  const byModule = new Map<ModuleName, Group>();
  for (const m of manifest.modules) {
    // Built-in modules with the same argv and cwd share a process; a bound module is always alone.
    const key = m.builtin ? `builtin\0${JSON.stringify(m.exec)}\0${m.cwd}` : `bound\0${m.name}`;
    let g = byKey.get(key);
    if (!g) {
      g = { key, exec: [...m.exec], cwd: m.cwd, builtin: m.builtin, modules: [] };
      byKey.set(key, g);
    }
    g.modules.push(m.name);
    byModule.set(m.name, g);
  }
  return byModule;
}

/** A hand-written manifest must route every hook and tool to a module it lists, with that module's binding. */
function manifestProblem(manifest: Manifest, modules: Map<ModuleName, ManifestModule>): string | undefined {
  const refs = [
    ...Object.entries(manifest.hooks).flatMap(([h, list]) => list.map((r) => [`hooks.${h}`, r] as const)),
    ...Object.entries(manifest.tools).map(([t, r]) => [`tools.${t}`, r] as const),
  ];
  for (const [where, ref] of refs) {
    const m = modules.get(ref.module);
    if (!m) return `${where} names module "${ref.module}", which is not in "modules"`;
    if (JSON.stringify(m.exec) !== JSON.stringify(ref.exec) || m.cwd !== ref.cwd || m.builtin !== ref.builtin)
      return `${where}: the binding of module "${ref.module}" differs from its entry in "modules"`;
  }
  return undefined;
}

export class WorkerHost implements HookRunner {
  private readonly workspace: string;
  private readonly deadlineMs: number;
  private readonly helloDeadlineMs: number | undefined;
  private readonly maxLineBytes: number | undefined;
  private readonly logDir: string;
  private readonly env: Record<string, string>;
  private readonly modules = new Map<ModuleName, ManifestModule>();
  private readonly groups: Map<ModuleName, Group>;
  private readonly slots = new Map<string, Slot>();
  /** event → modules in pipeline order, computed once (runHook is on the agent's hot path) */
  private readonly pipelines = new Map<string, ModuleName[]>();
  /** optional declarations a worker made at hello: extra tools (e.g. web_search) and `checkpoint` */
  private readonly extraTools = new Map<string, { module: ModuleName; decl: ToolDecl }>();
  private readonly checkpointModules = new Set<ModuleName>();
  /** per module, the hooks for which it declared at hello that a history summary is enough */
  private readonly payloads = new Map<ModuleName, Partial<Record<string, PayloadForm>>>();
  /** per module, what it said at hello of each hook's deadline and when it may be left out */
  private readonly hookOptions = new Map<ModuleName, CompiledHookOptions>();
  private closed = false;
  private readonly observer: WorkerHostOptions["observer"];
  private readonly moduleEnv: WorkerHostOptions["moduleEnv"];
  /** tools declared at run time, and the last revision each module reported */
  private readonly runtime: RuntimeToolTable;
  private readonly revisions = new Map<ModuleName, number>();
  /** modules whose last `tools` reply said they answer `tools_watch` */
  private readonly watchable = new Set<ModuleName>();
  private readonly runtimeNotices: string[] = [];
  private readonly saidFailures = new Set<string>();
  /** prompts modules declare at run time, by module */
  private readonly prompts = new Map<ModuleName, RuntimePromptDecl[]>();
  /** resources modules offer at run time (`@SERVER:URI` mentions), by module */
  private readonly resources = new Map<ModuleName, RuntimeResourceDecl[]>();

  constructor(
    private readonly manifest: Manifest,
    opts: WorkerHostOptions,
  ) {
    this.workspace = resolve(opts.workspace);
    this.deadlineMs = opts.deadlineMs ?? DEFAULT_DEADLINE_MS;
    this.helloDeadlineMs = opts.helloDeadlineMs;
    this.maxLineBytes = opts.maxLineBytes;
    this.observer = opts.observer;
    this.moduleEnv = opts.moduleEnv;
    const reserved = new Set(opts.reservedToolNames ?? []);
    this.runtime = new RuntimeToolTable((name) => {
      if (reserved.has(name)) return `the core tool "${name}"`;
      const fixed = this.manifest.tools[name]?.module ?? this.extraTools.get(name)?.module;
      return fixed ? `module "${fixed}"'s tool "${name}"` : undefined;
    });
    this.logDir = opts.logDir ?? join(opts.configDir, "logs");
    this.env = workerEnv({ workspace: this.workspace, configDir: opts.configDir, parent: opts.env });
    for (const m of manifest.modules) this.modules.set(m.name, m);
    const problem = manifestProblem(manifest, this.modules);
    if (problem) throw new UserError(`manifest: ${problem}; regenerate it with \`i --runtime manifest\``);
    this.groups = groupsOf(manifest);
    for (const [event, refs] of Object.entries(manifest.hooks))
      this.pipelines.set(
        event,
        refs.map((r) => r.module),
      );
  }

  hasHook(event: HookEvent): boolean {
    if ((this.manifest.hooks[event]?.length ?? 0) > 0) return true;
    return event === "checkpoint" && this.checkpointModules.size > 0;
  }

  /**
   * Whether running `event` (for tool `toolName`) may reach any module: false when every module declaring
   * it said at hello that nothing is configured for it (or not for this tool). A module not started yet
   * counts as wanting it (its hello has not been heard).
   */
  wantsHook(event: HookEvent, toolName?: string): boolean {
    if (!this.hasHook(event)) return false;
    const probe = toolName === undefined ? {} : { tool_name: toolName };
    return this.hookModules(event).some((m) => !skipsHook(this.hookOptions.get(m), event, probe));
  }

  async runHook<E extends HookEvent>(event: E, data: HookData, opts?: HookOptions): Promise<HookReply<E>> {
    let current = data;
    const field = SUMMARISABLE[event];
    for (const module of this.hookModules(event)) {
      if (skipsHook(this.hookOptions.get(module), event, current)) continue;
      const t0 = logOn() ? performance.now() : 0;
      const next = await this.step(module, event, current, field, data);
      if (logOn()) log("debug", "hook", `${event} ${module}: ${(performance.now() - t0).toFixed(1)} ms`);
      const problem = replyProblem(event, next) ?? opts?.afterEach?.(module, next, current);
      if (problem !== undefined) throw new WorkerError(module, event, "malformed", problem);
      current = next;
    }
    // Every module's reply has passed HOOKS[event].reply, so the last one is that shape.
    return current as HookReply<E>;
  }

  /** One module's step of a hook pipeline, with the history summarised when the module declared so. */
  private async step(
    module: ModuleName,
    event: HookEvent,
    data: HookData,
    field: "history" | "messages" | undefined,
    core: HookData,
  ): Promise<HookData> {
    const full = field === undefined ? undefined : data[field];
    if (field === undefined || !Array.isArray(full))
      return this.send(module, event, data, kept(event, core, data));
    // What the module declared is known after its handshake: start it first if needed.
    const group = this.groups.get(module);
    if (group && !this.isReady(module)) await this.ensure(group, module, event);
    if (this.payloads.get(module)?.[event] !== "summary")
      return this.send(module, event, data, kept(event, core, data));
    return this.sendSummarised(module, event, data, field, full, core);
  }

  /** One step with the history field swapped for its summary; the reply gets the very same array back. */
  private async sendSummarised(
    module: ModuleName,
    event: HookEvent,
    data: HookData,
    field: string,
    full: unknown[],
    core: HookData,
  ): Promise<HookData> {
    const sent: HookData = {};
    for (const [k, v] of Object.entries(data)) if (k !== field) sent[k] = v;
    sent.history_summary = summarizeHistory(full);
    const reply = await this.send(module, event, sent, kept(event, core, sent));
    const out: HookData = {};
    for (const [k, v] of Object.entries(reply)) if (k !== "history_summary" && k !== field) out[k] = v;
    out[field] = full;
    return out;
  }

  /** A hook's own deadline when its module asked for one at hello (a user's hook may run for minutes). */
  private deadlineOf(module: ModuleName, event: string): number | undefined {
    return this.hookOptions.get(module)?.[event]?.deadlineMs;
  }

  private isReady(module: ModuleName): boolean {
    const group = this.groups.get(module);
    const slot = group && this.slots.get(group.key);
    return !!slot?.ok && slot.proc.alive;
  }

  async callTool(
    name: string,
    args: unknown,
    callId: string,
    opts: ToolCallOptions = {},
  ): Promise<ToolResult> {
    const rt = this.runtime.get(name);
    const module = this.toolModule(name) ?? rt?.module;
    if (!module) throw new Error(`no worker module serves tool "${name}"`);
    const data = {
      name,
      arguments: args,
      call_id: callId,
      ...(opts.context ? { context: opts.context } : {}),
    };
    // A runtime tool has its own deadline (the module enforces it and answers with a tool error); the
    // host's is a backstop a little later, so a module that never answers is still evicted. A registry
    // tool may declare a longer one than the hooks' (a child task runs for minutes).
    const deadlineMs =
      rt?.decl.timeout_ms !== undefined
        ? rt.decl.timeout_ms + RUNTIME_CALL_GRACE_MS
        : toolSpec(module, name)?.deadlineMs;
    const reply = await this.send(module, "tool", data, checkToolReply, {
      ...(deadlineMs !== undefined ? { deadlineMs } : {}),
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    });
    return reply.result as ToolResult;
  }

  private toolModule(name: string): ModuleName | undefined {
    return this.manifest.tools[name]?.module ?? this.extraTools.get(name)?.module;
  }

  /** The declaration of a tool declared at run time (approval, group, deadline), or undefined. */
  runtimeTool(name: string): RuntimeToolDecl | undefined {
    return this.runtime.get(name)?.decl;
  }

  /**
   * Tell the module running `name` that call `callId` was cancelled (it stops it if it can; never
   * throws): a runtime tool's module by `cancel`, a registry tool's by `tool_cancel`.
   */
  cancelTool(name: string, callId: string): void {
    const rt = this.runtime.get(name);
    const module = rt?.module ?? this.toolModule(name);
    if (!module || !this.isReady(module)) return;
    this.send(module, rt ? CANCEL_EVENT : TOOL_CANCEL_EVENT, { call_id: callId }).catch(() => {});
  }

  /** The tools modules declare at run time now, by module (offered through the dispatch's declared tools). */
  runtimeDecls(): Map<ModuleName, RuntimeToolDecl[]> {
    const out = new Map<ModuleName, RuntimeToolDecl[]>(this.runtimeModules().map((m) => [m, []]));
    for (const { module, decl } of this.runtime.entries()) out.get(module)?.push(decl);
    return out;
  }

  /** The prompts modules offer now (the console's slash commands), each with the module offering it. */
  runtimePrompts(): { module: ModuleName; decl: RuntimePromptDecl }[] {
    return [...this.prompts].flatMap(([module, decls]) => decls.map((decl) => ({ module, decl })));
  }

  /** The text of prompt `name` of a module, with `args`. */
  async getPrompt(name: string, args: Record<string, string>): Promise<string> {
    const p = this.runtimePrompts().find((x) => x.decl.name === name);
    if (!p) throw new Error(`no prompt "${name}"`);
    const reply = PromptReplyData.safeParse(
      await this.send(p.module, PROMPT_EVENT, { name, arguments: args }),
    );
    if (!reply.success) throw new Error(`module "${p.module}" sent an invalid prompt reply`);
    return reply.data.text;
  }

  /** The resources modules offer now (as of the last `tools` reply). */
  runtimeResources(): RuntimeResourceDecl[] {
    return [...this.resources.values()].flat();
  }

  /**
   * The contents of resource `uri` of server `server`, read by the module that offers that server's
   * resources (or, not yet listed, the first module declaring tools at run time, which says what it knows).
   */
  async readResource(server: string, uri: string): Promise<ResourceContent[]> {
    const module =
      [...this.resources].find(([, list]) => list.some((r) => r.server === server))?.[0] ??
      this.runtimeModules()[0];
    if (!module) throw new Error(`no MCP server "${server}" (none is configured: mcp.json)`);
    const data = await this.send(module, RESOURCE_EVENT, { server, uri }).catch((err: unknown) => {
      // The module's own words (no such server, the server's error) are what the user needs to read.
      if (err instanceof WorkerError && err.reason === "error_reply")
        throw new Error(err.detail.replace(/^the worker answered with an error: /, ""));
      throw err;
    });
    const reply = ResourceReplyData.safeParse(data);
    if (!reply.success) throw new Error(`module "${module}" sent an invalid resource reply`);
    return reply.data.contents;
  }

  /** Modules of the manifest that declare tools at run time. */
  runtimeModules(): ModuleName[] {
    return this.manifest.modules.map((m) => m.name).filter((m) => MODULES[m].runtimeTools);
  }

  /**
   * Ask every module that declares tools at run time for its current list (waiting at most `waitMs` for
   * tools still on their way). A module that fails is a notice; its tools stay as they were.
   */
  async refreshTools(
    waitMs = TOOLS_WAIT_MS,
    modules: readonly ModuleName[] = this.runtimeModules(),
  ): Promise<RuntimeRefresh> {
    const out: RuntimeRefresh = { notices: [], changed: false, status: {} };
    await Promise.all(
      modules.map(async (module) => {
        try {
          const data = { wait_ms: waitMs, revision: this.revisions.get(module) ?? 0 };
          const reply = ToolsReplyData.parse(await this.send(module, TOOLS_EVENT, data));
          out.notices.push(...(reply.notices ?? []));
          if (reply.status) out.status[module] = reply.status;
          if (reply.watch === true) this.watchable.add(module);
          else this.watchable.delete(module);
          if (reply.revision !== this.revisions.get(module)) {
            if (!reply.runtime_tools)
              throw new Error(
                `its reply has revision ${reply.revision} but no runtime_tools (required when it changed)`,
              );
            out.changed = true;
            this.revisions.set(module, reply.revision);
            out.notices.push(...this.acceptRuntime(module, reply.runtime_tools));
            this.prompts.set(module, reply.prompts ?? []);
            this.resources.set(module, reply.resources ?? []);
          }
        } catch (err) {
          // Said once: the next request tries again (a fresh process), and says only what is new.
          const line = `${module}: its tools are unavailable: ${(err as Error).message}`;
          if (!this.saidFailures.has(line)) out.notices.push(line);
          this.saidFailures.add(line);
        }
      }),
    );
    // What the handshakes said (they ran during this refresh, or before it) comes first.
    out.notices.unshift(...this.runtimeNotices.splice(0));
    return out;
  }

  /**
   * Wait (at most `waitMs`) for module `module`'s tools to change from the revision the core last saw:
   * true when they did, false when nothing changed in that time, undefined when the module does not
   * watch (ask it with refreshTools before each request). Rejects when the module fails.
   */
  async watchTools(module: ModuleName, waitMs: number): Promise<boolean | undefined> {
    if (!this.watchable.has(module)) return undefined;
    const revision = this.revisions.get(module) ?? 0;
    const data = await this.send(module, TOOLS_WATCH_EVENT, { revision, wait_ms: waitMs }, undefined, {
      deadlineMs: waitMs + WATCH_GRACE_MS,
    });
    const reply = ToolsWatchReplyData.parse(data);
    return reply.current === undefined ? undefined : reply.current !== revision;
  }

  private acceptRuntime(module: ModuleName, decls: readonly RuntimeToolDecl[]): string[] {
    const namespace = MODULES[module].runtimeTools?.namespace;
    return namespace ? this.runtime.set(module, namespace, decls) : [];
  }

  toolDecls(): ToolDecl[] {
    const decls: ToolDecl[] = Object.entries(this.manifest.tools).map(([name, t]) => ({
      name,
      description: t.description,
      input_schema: t.input_schema,
    }));
    for (const { decl } of this.extraTools.values()) if (!this.manifest.tools[decl.name]) decls.push(decl);
    return decls;
  }

  /**
   * Send one event to one module and return the reply's data. The agent uses runHook/callTool; `i doctor` and
   * tests use this directly (e.g. an event the module does not handle must come back unchanged).
   */
  send(
    module: ModuleName,
    event: string,
    data: Data,
    check?: ReplyCheck,
    extra?: RequestOptions,
  ): Promise<Data> {
    const group = this.groups.get(module);
    if (!group) return Promise.reject(new Error(`module "${module}" is not in the manifest`));
    const builtin = group.builtin;
    const slot = this.slots.get(group.key);
    // Hot path: a process that already passed its handshake gets the request without another await.
    const opts = extra ?? { deadlineMs: this.deadlineOf(module, event) };
    if (slot?.ok && slot.proc.alive) return slot.proc.request(module, event, data, builtin, check, opts);
    return this.ensure(group, module, event).then((proc) =>
      proc.request(module, event, data, builtin, check, opts),
    );
  }

  /** Start (and handshake) the processes serving `modules`, concurrently; resolves when all are ready. */
  async start(modules: ModuleName[] = [...this.groups.keys()]): Promise<void> {
    const byGroup = new Map<Group, ModuleName>();
    for (const m of modules) {
      const g = this.groups.get(m);
      if (!g) throw new Error(`module "${m}" is not in the manifest`);
      if (!byGroup.has(g)) byGroup.set(g, m);
    }
    await Promise.all([...byGroup].map(([g, m]) => this.ensure(g, m, "hello")));
  }

  isClosed(): boolean {
    return this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    const procs = [...this.slots.values()].map((s) => s.proc);
    this.slots.clear();
    await Promise.all(procs.map((p) => p.close(CLOSE_GRACE_MS)));
  }

  private hookModules(event: HookEvent): readonly ModuleName[] {
    const listed = this.pipelines.get(event) ?? NONE;
    if (event !== "checkpoint" || this.checkpointModules.size === 0) return listed;
    // Modules that asked for checkpoint notifications at hello join in manifest order.
    return this.manifest.modules
      .map((m) => m.name)
      .filter((m) => listed.includes(m) || this.checkpointModules.has(m));
  }

  private ensure(group: Group, forModule: ModuleName, forEvent: string): Promise<WorkerProcess> {
    if (this.closed) return Promise.reject(new Error("the worker host is closed"));
    const existing = this.slots.get(group.key);
    if (existing?.proc.alive)
      return existing.ready.catch((err) => Promise.reject(rephrase(err, forModule, forEvent)));
    startupMark(`worker spawn: ${group.modules.join(",")}`);
    const t0 = logOn() ? performance.now() : 0;
    const proc = this.spawn(group);
    const slot: Slot = {
      proc,
      ok: false,
      ready: this.handshake(group, proc).then(() => {
        startupMark(`worker ready: ${group.modules.join(",")}`);
        if (logOn())
          log(
            "debug",
            "worker",
            `${group.modules.join(",")} started, ready in ${(performance.now() - t0).toFixed(1)} ms (for ${forEvent})`,
          );
        slot.ok = true;
        return proc;
      }),
    };
    this.slots.set(group.key, slot);
    if (!proc.alive) this.slots.delete(group.key);
    return slot.ready.catch((err) => Promise.reject(rephrase(err, forModule, forEvent)));
  }

  private spawn(group: Group): WorkerProcess {
    const logName = group.modules.length === 1 ? (group.modules[0] as string) : "builtin";
    // Built-in workers run in config_dir, which `i` owns; on a first run without `i init` it does not
    // exist yet. A bound module's own cwd is the user's to create: its absence stays an error.
    if (group.builtin && group.cwd === this.manifest.config_dir) ensurePrivateDir(group.cwd);
    // `let` so the onDead callback may run during construction (a spawn that fails at once) without a TDZ error.
    let proc: WorkerProcess | undefined;
    proc = new WorkerProcess({
      exec: group.exec,
      cwd: group.cwd,
      env: {
        ...(group.builtin ? { ...this.env, ...BUILTIN_WORKER_ENV } : this.env),
        ...(group.modules.length === 1 ? this.moduleEnv?.[group.modules[0] as ModuleName] : undefined),
      },
      workspace: this.workspace,
      deadlineMs: this.deadlineMs,
      ...(this.helloDeadlineMs === undefined ? {} : { helloDeadlineMs: this.helloDeadlineMs }),
      maxLineBytes: this.maxLineBytes,
      log: new LogSink(join(this.logDir, `${logName}.log`)),
      onDead: () => {
        const slot = this.slots.get(group.key);
        if (slot && slot.proc === proc) this.slots.delete(group.key);
      },
    });
    this.observer?.(proc, group.modules);
    return proc;
  }

  /** One hello per module the process serves, all at once; the first refusal evicts the whole process. */
  private async handshake(group: Group, proc: WorkerProcess): Promise<void> {
    await Promise.all(
      group.modules.map((module) =>
        this.hello(group, proc, module).catch((err: unknown) => {
          proc.fail("handshake", `module "${module}" of this process failed its handshake`);
          throw err;
        }),
      ),
    );
  }

  private async hello(group: Group, proc: WorkerProcess, module: ModuleName): Promise<void> {
    const data = { protocol: PROTOCOL_VERSION, module };
    const reply = await proc.request(module, "hello", data, group.builtin, (d) => checkHello(module, d));
    const hello = HelloReplyData.parse(reply);
    // A fresh process counts its revisions afresh: the next `tools` poll takes whatever it reports.
    this.revisions.delete(module);
    this.payloads.set(module, hello.payloads ?? {});
    if (hello.hook_options) this.hookOptions.set(module, compileHookOptions(hello.hook_options));
    if (hello.hooks.includes("checkpoint") && !MODULES[module].hooks.includes("checkpoint"))
      this.checkpointModules.add(module);
    // Optional tools (checked against the registry at hello) become callable once declared.
    for (const t of hello.tools)
      if (!MODULES[module].tools.some((s) => s.name === t.name))
        this.extraTools.set(t.name, { module, decl: t });
    if (hello.runtime_tools) this.runtimeNotices.push(...this.acceptRuntime(module, hello.runtime_tools));
  }
}

function checkHello(module: ModuleName, data: Data) {
  // Once per module and process start: zod's plain path, no parser compiled for it (see lib/json-file.ts).
  const parsed = HelloReplyData.safeParse(data, { jitless: true });
  if (!parsed.success) {
    return { reason: "handshake" as const, detail: describeIssue("invalid hello reply", parsed.error) };
  }
  const diff = declarationDifference(module, parsed.data);
  return diff
    ? { reason: "handshake" as const, detail: `declarations differ from module "${module}": ${diff}` }
    : undefined;
}

/**
 * A hook reply must be the complete updated data object: every field it was sent is still there, and
 * those the hook may not change keep their values. A reply that breaks this evicts the worker.
 */
function kept(event: HookEvent, core: Data, sent: Data): ReplyCheck {
  return (reply) => {
    const detail = keptFieldProblem(event, core, sent, reply);
    return detail === undefined ? undefined : { reason: "malformed", detail };
  };
}

/**
 * Why one module's reply is not the hook's reply shape, or undefined. Checked once, here, for every module
 * of the pipeline, so the module at fault is the one named and callers get typed data.
 */
function replyProblem(event: HookEvent, reply: Data): string | undefined {
  const parsed = HOOKS[event].reply.safeParse(reply);
  return parsed.success ? undefined : describeIssue("invalid reply", parsed.error);
}

const checkToolReply: ReplyCheck = (data) => {
  const parsed = HOOKS.tool.reply.safeParse(data);
  if (parsed.success) return undefined;
  return { reason: "malformed", detail: describeIssue("sent an invalid tool result", parsed.error) };
};

/** A start failure, told from the point of view of the request that was waiting for it. */
function rephrase(err: unknown, module: ModuleName, event: string): unknown {
  if (!(err instanceof WorkerError) || (err.module === module && err.event === event)) return err;
  const who =
    err.module === module ? "its handshake" : `the handshake of module "${err.module}" in the same process`;
  return new WorkerError(module, event, err.reason, `could not start: ${who} failed: ${err.detail}`);
}
