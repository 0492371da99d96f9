// The worker SDK: what every worker module shares. A module declares hook handlers and tool handlers; the
// SDK answers `hello` with the declarations, dispatches events and always returns the complete data.
import type { HookReply, HookRequest } from "../../src/contract/hooks.ts";
import type { HookEvent, PayloadForm, ToolDecl, ToolResult } from "../../src/contract/protocol.ts";
import type { ResourceContent, RuntimeResourceDecl } from "../../src/contract/runtime-resources.ts";
import type { GroupStatus, RuntimePromptDecl, RuntimeToolDecl } from "../../src/contract/runtime-tools.ts";
import type { HookOptions } from "../../src/contract/user-hooks.ts";

export type Data = Record<string, unknown>;

export interface WorkerContext {
  /** absolute workspace path from the request */
  workspace: string;
  event: string;
  module: string;
  /** the worker's cwd: config_dir for built-in modules */
  cwd: string;
  /** a line to the worker's log (stderr, which the host sends to a log file) */
  log(message: string): void;
}

/**
 * The handler of hook `E`: it gets the data as the core sends it (typed by the hook's request schema; the
 * core has validated it, and earlier modules of the pipeline may have added fields) and returns the
 * complete data, which the host checks against the hook's reply schema. The messages in `history`,
 * `messages` and `candidate` are frozen: make new objects to change them (an assignment throws, and the
 * hook answers with an error); that lets the reply reuse the text they arrived as.
 */
export type HookHandler<E extends HookEvent = HookEvent> = (
  data: HookRequest<E>,
  ctx: WorkerContext,
) => HookReply<E> | Promise<HookReply<E>>;
/** A handler that treats the data as plain JSON whatever the event (a pass-through or a test double). */
export type RawHookHandler = (data: Data, ctx: WorkerContext) => Data | Promise<Data>;
/** One typed handler per hook event. */
export type HookHandlers = { [E in HookEvent]?: HookHandler<E> };
export type ToolContext = WorkerContext & {
  callId: string;
  /** aborted when the core cancels this call (`tool_cancel`; `cancel` for a tool declared at run time) */
  signal?: AbortSignal;
  /** what the core tells a tool that declared it needs its session (the `task` tool's TaskContext) */
  context?: Record<string, unknown>;
  /**
   * Report progress to the core while the call runs (shown to the user; settles nothing): a `{id,
   * progress}` line. A tool declared at run time reports a CallProgress (`{progress, total?, message?}`).
   */
  progress?: (progress: Record<string, unknown>) => void;
};
export type ToolHandler = (args: unknown, ctx: ToolContext) => ToolResult | Promise<ToolResult>;
/** A tool a module serves: its public declaration and the handler (see defineTool). */
export interface ModuleTool {
  decl: ToolDecl;
  run: ToolHandler;
}

/** What a module that owns a tool namespace reports of its tools at a moment (the `tools` reply). */
export interface RuntimeToolList {
  /** changes whenever `tools` does */
  revision: number;
  tools: RuntimeToolDecl[];
  /** prompts offered as slash commands */
  prompts?: RuntimePromptDecl[];
  /** resources offered for `@SERVER:URI` mentions */
  resources?: RuntimeResourceDecl[];
  /** lines the user should see once (sent once each) */
  notices?: string[];
  /** where each group (server) stands, for status displays */
  status?: Record<string, GroupStatus>;
  /** false: `watch` cannot see every change now (the core asks before each model request) */
  watch?: boolean;
}

/**
 * Tools declared at run time (the module's registry entry owns their namespace): the SDK answers `hello`,
 * `tools`, `tool` and `cancel` for them from this.
 */
export interface RuntimeTools {
  /** the current list, after waiting at most `waitMs` for declarations still on their way */
  list(waitMs: number, ctx: WorkerContext): Promise<RuntimeToolList>;
  call(name: string, args: unknown, ctx: ToolContext): Promise<ToolResult>;
  /** the user cancelled call `callId` (its reply is no longer awaited); its `ctx.signal` is aborted too */
  cancel?(callId: string): void;
  /**
   * Resolves with the current revision once it is no longer `revision` (or after `waitMs` with nothing
   * changed): lets the core skip asking for the list before every model request.
   */
  watch?(revision: number, waitMs: number): Promise<number>;
  /** the text of prompt `name` (a thrown error is the user's to read) */
  prompt?(name: string, args: Record<string, string>): Promise<string>;
  /** the contents of resource `uri` of server `server` (a thrown error is the user's to read) */
  resource?(server: string, uri: string): Promise<ResourceContent[]>;
  /** input ended: stop everything the module started */
  close?(): Promise<void>;
}

export interface WorkerModule {
  name: string;
  /** one handler per declared hook event */
  hooks: HookHandlers;
  /** tool declarations (built-in modules take them from the registry) and their handlers */
  tools?: ModuleTool[];
  /**
   * Hooks for which a summary of the history is enough (`history_summary` instead of the history field;
   * the core restores the field in the reply). Built-in modules take this from the registry.
   */
  payloads?: Partial<Record<HookEvent, PayloadForm>>;
  /**
   * Checks the module's own config when the host starts it (at `hello`): a bad file fails the start with
   * one line naming it, instead of surfacing later in the middle of a turn.
   */
  check?: (ctx: WorkerContext) => void | Promise<void>;
  runtimeTools?: RuntimeTools;
  /**
   * Serve requests concurrently (event-driven stdin) instead of one at a time: needed when a request must
   * reach the module while another runs (`cancel` during a tool call). The module runs in its own process.
   */
  concurrent?: boolean;
  /**
   * Told at hello, after `check`: per declared hook, its own request deadline and when the core may leave
   * it out (nothing configured for it, or only for some tools). See HookOptions in the contract.
   */
  hookOptions?: (ctx: WorkerContext) => Partial<Record<HookEvent, HookOptions>>;
  /** called once the input ends (the core closed the worker, or died): stop whatever still runs */
  close?: () => Promise<void>;
}

export function defineWorkerModule(m: WorkerModule): WorkerModule {
  return m;
}

/** A tool result carrying an error message for the model. */
export function toolError(message: string): ToolResult {
  return { content: message, is_error: true };
}

export function toolText(text: string): ToolResult {
  return { content: text, is_error: false };
}
