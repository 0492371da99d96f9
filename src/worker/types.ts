// What the agent core needs from the worker runtime. The WorkerHost implements it.
import type { HookReply } from "../contract/hooks.ts";
import type { HookEvent, ToolDecl, ToolResult } from "../contract/protocol.ts";

export type HookData = Record<string, unknown>;

export interface HookOptions {
  /**
   * Checked after each module of the pipeline with its reply (and the data it was sent): a problem makes
   * the hook fail as that module's error, so the culprit of a bad reply is named, not the pipeline.
   */
  afterEach?: (module: string, reply: HookData, sent: HookData) => string | undefined;
}

export interface ToolCallOptions {
  /** what the tool is told of its session (see ToolEventData.context) */
  context?: Record<string, unknown>;
  /** progress the worker reports while the call runs */
  onProgress?: (progress: Record<string, unknown>) => void;
}

export interface HookRunner {
  /** true when at least one module in the manifest declares this event */
  hasHook(event: HookEvent): boolean;
  /**
   * false when no module would act on `event` (for tool `toolName`): each one declaring it said at hello
   * that nothing is configured for it. Saves the round trip on every tool call when no hook matches.
   */
  wantsHook?(event: HookEvent, toolName?: string): boolean;
  /**
   * Run every module declaring `event`, in manifest order, each getting the previous one's data. Each reply
   * is checked against the hook's reply schema (HOOKS[event].reply), so the result is typed.
   */
  runHook<E extends HookEvent>(event: E, data: HookData, opts?: HookOptions): Promise<HookReply<E>>;
  /** call a module tool through the worker that owns it */
  callTool(name: string, args: unknown, callId: string, opts?: ToolCallOptions): Promise<ToolResult>;
  /** tell the tool's worker that a call in flight was cancelled (optional: a runner may not support it) */
  cancelTool?(name: string, callId: string): void;
  /** module tools, for the model, beside the core tools */
  toolDecls(): ToolDecl[];
  /** stop every worker process (kill and reap) */
  close(): Promise<void>;
  /** true once close() has begun: a request failing after that is the session ending, not a fault */
  isClosed?(): boolean;
}
