// Everything the agent reports while it runs. The console renders these; `i -p --json` streams them as
// NDJSON, one object per line (documented in the README).
import type { Message } from "../contract/history.ts";
import type { Usage } from "../provider/types.ts";

export type CompactionReason = "auto" | "manual" | "overflow";

export type AgentEvent =
  | { type: "session"; id: string; resumed: boolean; workspace: string }
  | { type: "turn_start"; turn: number }
  | { type: "text_delta"; text: string }
  | { type: "assistant"; message: Message }
  | { type: "tool_call"; id: string; name: string; arguments: string }
  | { type: "tool_result"; id: string; name: string; is_error: boolean; content: string }
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
  | { type: "retry"; attempt: number; delay_ms: number; reason: string }
  | { type: "notice"; level: "info" | "warn"; message: string }
  | { type: "error"; kind: string; message: string }
  | { type: "done"; text: string; turns: number; usage: Usage };

export type EmitEvent = (ev: AgentEvent) => void;
