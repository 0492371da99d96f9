// Everything the agent reports while it runs. The console renders these; `i -p --json` streams them as
// NDJSON, one object per line (documented in the README).

import type { CompactionStage } from "../compaction/pipeline.ts";
import type { Message } from "../history/schema.ts";
import type { Usage } from "../provider/types.ts";
import type { DiffLine } from "../tools/diff.ts";

export type CompactionReason = "auto" | "manual" | "overflow";

export type AgentEvent =
  | { type: "session"; id: string; resumed: boolean; workspace: string }
  | { type: "turn_start"; turn: number }
  | { type: "text_delta"; text: string }
  | { type: "assistant"; message: Message }
  | { type: "tool_call"; id: string; name: string; arguments: string }
  /** output of a running command as it arrives (raw: display sanitises it) */
  | { type: "tool_output"; id: string; text: string }
  /** what a file tool changed, as bounded unified-diff hunks */
  | {
      type: "tool_diff";
      id: string;
      path: string;
      added: number;
      removed: number;
      hunks: DiffLine[][];
      omitted: number;
    }
  | {
      type: "tool_result";
      id: string;
      name: string;
      is_error: boolean;
      content: string;
      duration_ms: number;
      /** bash: the command's exit code (null when killed by a signal) */
      exit_code?: number | null;
    }
  | {
      type: "budget";
      total: number;
      hard_limit: number;
      context_window: number;
      ratio: number;
      recommendation: "none" | "compact" | "over";
    }
  | {
      type: "compaction";
      phase: "start" | "done" | "failed" | "skipped";
      reason: CompactionReason;
      cut?: number;
      before_tokens?: number;
      after_tokens?: number;
      route?: "model" | "local";
      error?: string;
    }
  /** the stage a running compaction is in */
  | { type: "compaction_step"; reason: CompactionReason; step: CompactionStage }
  | { type: "retry"; attempt: number; delay_ms: number; reason: string }
  | { type: "notice"; level: "info" | "warn"; message: string }
  | { type: "error"; kind: string; message: string }
  | { type: "done"; text: string; turns: number; usage: Usage };

export type EmitEvent = (ev: AgentEvent) => void;
