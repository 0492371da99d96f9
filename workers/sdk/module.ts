// The worker SDK: what every worker module shares. A module declares hook handlers and tool handlers; the
// SDK answers `hello` with the declarations, dispatches events and always returns the complete data.
import type { HookEvent, ToolDecl, ToolResult } from "../../src/contract/protocol.ts";

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

export type HookHandler = (data: Data, ctx: WorkerContext) => Data | Promise<Data>;
export type ToolHandler = (
  args: unknown,
  ctx: WorkerContext & { callId: string },
) => ToolResult | Promise<ToolResult>;

export interface WorkerModule {
  name: string;
  /** one handler per declared hook event */
  hooks: Partial<Record<HookEvent, HookHandler>>;
  /** tool declarations (built-in modules take them from the registry) and their handlers */
  tools?: { decl: ToolDecl; run: ToolHandler }[];
  /**
   * Checks the module's own config when the host starts it (at `hello`): a bad file fails the start with
   * one line naming it, instead of surfacing later in the middle of a turn.
   */
  check?: (ctx: WorkerContext) => void | Promise<void>;
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
