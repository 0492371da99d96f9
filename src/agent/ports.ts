// What the agent loop needs of the parts around it, as narrow interfaces: the session it checkpoints to
// and the compaction controller it asks before each request. The concrete Session and
// CompactionController satisfy them; a unit test of the loop supplies its own.
import type { RestoreOutcome } from "../compaction/uncompact.ts";
import type { ModelInfo } from "../contract/config.ts";
import type { History } from "../contract/history.ts";
import type { ToolDecl } from "../contract/protocol.ts";
import type { Usage } from "../provider/types.ts";

export interface AgentSession {
  readonly id: string;
  /** the history saved and durable before this returns */
  checkpoint(history: History): void;
  /** the history saved now; durable when the promise settles (it rejects when the sync failed) */
  checkpointSyncLater(history: History): Promise<void>;
}

export interface AgentCompaction {
  /** before each model request: the budget read, and an automatic compaction when due */
  prepareRequest(history: History, tools: ToolDecl[], signal?: AbortSignal): Promise<History>;
  /** the provider said the request was too large: one compaction */
  recoverFromOverflow(history: History, tools: ToolDecl[], signal?: AbortSignal): Promise<History>;
  /** `/compact`, `i compact` */
  compactNow(
    history: History,
    tools: ToolDecl[],
    opts?: { instructions?: string; signal?: AbortSignal },
  ): Promise<History>;
  /** `/uncompact [N]`: the history before compaction N, when it fits */
  uncompact(history: History, tools: ToolDecl[], n?: number): Promise<RestoreOutcome>;
  /** undo the last uncompaction */
  recompact(history: History): RestoreOutcome;
  recordUsage(usage: Usage, messagesCovered: number): void;
  setModel(model: ModelInfo & { name: string }): void;
  /** a budget reading as a `budget` event, no compaction (after `/model`) */
  measure(history: History, tools: ToolDecl[]): Promise<void>;
}
