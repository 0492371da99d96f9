// The worker host: runs the manifest's modules as persistent worker processes for the agent core. Processes
// start lazily on the first event that needs them; built-in modules that share an exec share one process (the
// request's `module` field says which one an event is for), a bound module always runs alone. There is no
// fallback: a failed worker fails the request, and the next request starts a fresh process.
//
// This file routes: hooks through their pipelines, tool calls to the module serving them, any event to
// its process. The processes themselves are worker-pool.ts's, what modules declare at run time is
// runtime-catalog.ts's, and the checks a reply passes are reply-checks.ts's.
import { join, resolve } from "node:path";
import { UserError } from "../contract/errors.ts";
import type { HookReply } from "../contract/hooks.ts";
import type { Manifest, ManifestModule } from "../contract/manifest.ts";
import {
  DEFAULT_DEADLINE_MS,
  type HelloReplyData,
  type HookEvent,
  type PayloadForm,
  SUMMARISABLE,
  TOOL_CANCEL_EVENT,
  type ToolDecl,
  type ToolResult,
} from "../contract/protocol.ts";
import { MODULES, type ModuleName, toolSpec } from "../contract/registry.ts";
import type { ResourceContent, RuntimeResourceDecl } from "../contract/runtime-resources.ts";
import { CANCEL_EVENT, type RuntimePromptDecl, type RuntimeToolDecl } from "../contract/runtime-tools.ts";
import { log, logOn } from "../lib/log.ts";
import { workerEnv } from "./env.ts";
import { WorkerError } from "./errors.ts";
import { summarizeHistory } from "./history-summary.ts";
import { type CompiledHookOptions, compileHookOptions, skipsHook } from "./hook-options.ts";
import { type Group, groupsOf, manifestProblem } from "./manifest-groups.ts";
import type { Data, ReplyCheck, RequestOptions, WorkerProcess } from "./process.ts";
import { checkToolReply, kept, replyProblem } from "./reply-checks.ts";
import { RuntimeCatalog, type RuntimeRefresh, TOOLS_WAIT_MS } from "./runtime-catalog.ts";
import type { HookData, HookOptions, HookRunner, ToolCallOptions } from "./types.ts";
import { WorkerPool } from "./worker-pool.ts";

export { WorkerError } from "./errors.ts";
export { type RuntimeRefresh, TOOLS_WAIT_MS } from "./runtime-catalog.ts";

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

/** A runtime tool's call may run this much past its own deadline before the host gives up on the worker. */
const RUNTIME_CALL_GRACE_MS = 5_000;

const NONE: readonly ModuleName[] = [];

export class WorkerHost implements HookRunner {
  private readonly deadlineMs: number;
  private readonly modules = new Map<ModuleName, ManifestModule>();
  private readonly groups: Map<ModuleName, Group>;
  private readonly pool: WorkerPool;
  /** event → modules in pipeline order, computed once (runHook is on the agent's hot path) */
  private readonly pipelines = new Map<string, ModuleName[]>();
  /** optional declarations a worker made at hello: extra tools (e.g. web_search) and `checkpoint` */
  private readonly extraTools = new Map<string, { module: ModuleName; decl: ToolDecl }>();
  private readonly checkpointModules = new Set<ModuleName>();
  /** per module, the hooks for which it declared at hello that a history summary is enough */
  private readonly payloads = new Map<ModuleName, Partial<Record<string, PayloadForm>>>();
  /** per module, what it said at hello of each hook's deadline and when it may be left out */
  private readonly hookOptions = new Map<ModuleName, CompiledHookOptions>();
  /** tools, prompts and resources modules declare at run time */
  private readonly catalog: RuntimeCatalog;

  constructor(
    private readonly manifest: Manifest,
    opts: WorkerHostOptions,
  ) {
    const workspace = resolve(opts.workspace);
    this.deadlineMs = opts.deadlineMs ?? DEFAULT_DEADLINE_MS;
    const reserved = new Set(opts.reservedToolNames ?? []);
    const runtimeModules = manifest.modules.map((m) => m.name).filter((m) => MODULES[m].runtimeTools);
    this.catalog = new RuntimeCatalog(
      (module, event, data, check, extra) => this.send(module, event, data, check, extra),
      runtimeModules,
      (name) => {
        if (reserved.has(name)) return `the core tool "${name}"`;
        const fixed = this.toolModule(name);
        return fixed ? `module "${fixed}"'s tool "${name}"` : undefined;
      },
    );
    this.pool = new WorkerPool({
      workspace,
      configDir: manifest.config_dir,
      env: workerEnv({ workspace, configDir: opts.configDir, parent: opts.env }),
      deadlineMs: this.deadlineMs,
      helloDeadlineMs: opts.helloDeadlineMs,
      maxLineBytes: opts.maxLineBytes,
      logDir: opts.logDir ?? join(opts.configDir, "logs"),
      observer: opts.observer,
      moduleEnv: opts.moduleEnv,
      onHello: (module, hello) => this.heard(module, hello),
    });
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
      this.retireIfUnwanted(module, event, current);
      current = next;
    }
    // Every module's reply has passed HOOKS[event].reply, so the last one is that shape.
    return current as HookReply<E>;
  }

  /**
   * A built-in module with a process of its own that was started for a request its hello then said it
   * does not want (the lsp module, started by the first read, with no server for that file or none at
   * all): the process is let go, so a session it serves nothing keeps no idle worker. What it said stays
   * known, so such requests are left out from then on; one it wants starts it again.
   */
  private retireIfUnwanted(module: ModuleName, event: HookEvent, sent: HookData): void {
    const group = this.groups.get(module);
    if (!group?.builtin || group.modules.length !== 1) return;
    if (skipsHook(this.hookOptions.get(module), event, sent)) this.pool.retire(group);
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
    if (group && !this.isReady(module)) await this.pool.ensure(group, module, event);
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
    return !!group && this.pool.readyProcess(group) !== undefined;
  }

  async callTool(
    name: string,
    args: unknown,
    callId: string,
    opts: ToolCallOptions = {},
  ): Promise<ToolResult> {
    const rt = this.catalog.tool(name);
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
    return this.catalog.tool(name)?.decl;
  }

  /**
   * Tell the module running `name` that call `callId` was cancelled (it stops it if it can; never
   * throws): a runtime tool's module by `cancel`, a registry tool's by `tool_cancel`.
   */
  cancelTool(name: string, callId: string): void {
    const rt = this.catalog.tool(name);
    const module = rt?.module ?? this.toolModule(name);
    if (!module || !this.isReady(module)) return;
    this.send(module, rt ? CANCEL_EVENT : TOOL_CANCEL_EVENT, { call_id: callId }).catch(() => {});
  }

  /** The tools modules declare at run time now, by module (offered through the dispatch's declared tools). */
  runtimeDecls(): Map<ModuleName, RuntimeToolDecl[]> {
    return this.catalog.decls();
  }

  /** The prompts modules offer now (the console's slash commands), each with the module offering it. */
  runtimePrompts(): { module: ModuleName; decl: RuntimePromptDecl }[] {
    return this.catalog.promptList();
  }

  /** The text of prompt `name` of a module, with `args`. */
  getPrompt(name: string, args: Record<string, string>): Promise<string> {
    return this.catalog.getPrompt(name, args);
  }

  /** The resources modules offer now (as of the last `tools` reply). */
  runtimeResources(): RuntimeResourceDecl[] {
    return this.catalog.resourceList();
  }

  /** The contents of resource `uri` of server `server` (read by the module offering that server). */
  readResource(server: string, uri: string): Promise<ResourceContent[]> {
    return this.catalog.readResource(server, uri);
  }

  /** Modules of the manifest that declare tools at run time. */
  runtimeModules(): ModuleName[] {
    return [...this.catalog.modules];
  }

  /** Every runtime-tools module's current list, waiting at most `waitMs` (a failure is a notice). */
  refreshTools(
    waitMs = TOOLS_WAIT_MS,
    modules: readonly ModuleName[] = this.runtimeModules(),
  ): Promise<RuntimeRefresh> {
    return this.catalog.refresh(waitMs, modules);
  }

  /** Whether `module`'s tools changed within `waitMs` (undefined: it does not watch; poll refreshTools). */
  watchTools(module: ModuleName, waitMs: number): Promise<boolean | undefined> {
    return this.catalog.watch(module, waitMs);
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
    // Hot path: a process that already passed its handshake gets the request without another await.
    const opts = extra ?? { deadlineMs: this.deadlineOf(module, event) };
    const ready = this.pool.readyProcess(group);
    if (ready) return ready.request(module, event, data, builtin, check, opts);
    return this.pool
      .ensure(group, module, event)
      .then((proc) => proc.request(module, event, data, builtin, check, opts));
  }

  /** Start (and handshake) the processes serving `modules`, concurrently; resolves when all are ready. */
  async start(modules: ModuleName[] = [...this.groups.keys()]): Promise<void> {
    const byGroup = new Map<Group, ModuleName>();
    for (const m of modules) {
      const g = this.groups.get(m);
      if (!g) throw new Error(`module "${m}" is not in the manifest`);
      if (!byGroup.has(g)) byGroup.set(g, m);
    }
    await Promise.all([...byGroup].map(([g, m]) => this.pool.ensure(g, m, "hello")));
  }

  isClosed(): boolean {
    return this.pool.closed;
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private hookModules(event: HookEvent): readonly ModuleName[] {
    const listed = this.pipelines.get(event) ?? NONE;
    if (event !== "checkpoint" || this.checkpointModules.size === 0) return listed;
    // Modules that asked for checkpoint notifications at hello join in manifest order.
    return this.manifest.modules
      .map((m) => m.name)
      .filter((m) => listed.includes(m) || this.checkpointModules.has(m));
  }

  /** What a module of a fresh process declared at hello, kept for routing its hooks and tools. */
  private heard(module: ModuleName, hello: HelloReplyData): void {
    this.payloads.set(module, hello.payloads ?? {});
    if (hello.hook_options) this.hookOptions.set(module, compileHookOptions(hello.hook_options));
    if (hello.hooks.includes("checkpoint") && !MODULES[module].hooks.includes("checkpoint"))
      this.checkpointModules.add(module);
    // Optional tools (checked against the registry at hello) become callable once declared.
    for (const t of hello.tools)
      if (!MODULES[module].tools.some((s) => s.name === t.name))
        this.extraTools.set(t.name, { module, decl: t });
    this.catalog.helloFrom(module, hello.runtime_tools);
  }
}
