// The shapes AgentSession (agent-session.ts) takes and gives; front ends import them from there.
import type { AgentEvent } from "../contract/events.ts";
import type { ManifestModule } from "../contract/manifest.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../tools/approvals.ts";

export type { CommandTerminal, EditorFiles, TerminalRun } from "../tools/types.ts";

import type { SetupOptions } from "./setup.ts";

export interface SessionOptions extends Omit<SetupOptions, "emit" | "ask" | "steeringQueue"> {
  /** the console: lines typed while a turn runs are queued (steer) for the steering module to deliver */
  steering?: boolean;
}

export interface SessionPorts {
  /** every event of the session, in order */
  emit(ev: AgentEvent): void;
  /** the user's answer to an approval; absent when no one can be asked (such approvals are refused) */
  ask?(req: ApprovalRequest): Promise<ApprovalAnswer>;
}

export interface ModelInfo {
  name: string;
  context_window?: number;
  /** USD per million tokens, when known */
  price?: { input: number; output: number };
  /** keep: the model takes images; omit or describe (or absent): it gets none */
  images?: "keep" | "omit" | "describe";
}

/** A model /model offers, and where it came from. */
export interface ModelChoice extends ModelInfo {
  source: "config" | "provider" | "built-in";
}

/** The last context reading of the budget: tokens the next request holds, against the hard limit. */
export interface ContextReading {
  total: number;
  hard_limit: number;
  ratio: number;
}

export interface SessionStatus {
  id: string;
  workspace: string;
  model: ModelInfo;
  provider: string;
  profile: string;
  modules: readonly ManifestModule[];
  messages: number;
  context?: ContextReading;
  /** what the session allows without asking */
  approvals: string;
}

/** failed: the compaction's own `compaction` event has said why; any other error is thrown. */
export type CompactOutcome = "done" | "cancelled" | "failed";

export interface ShellOutcome {
  /** the command's output, as the model will see it */
  text: string;
  isError: boolean;
  /** not run (a read-only session); nothing joined the context */
  refused: boolean;
  /** the exit code (null: killed), when it ran */
  exit_code?: number | null;
  duration_ms: number;
}
