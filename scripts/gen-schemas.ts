// Generates JSON Schemas from the zod schemas of src/contract/ (the single source of truth), so editors can
// validate config files and worker authors in any language can validate what they send and receive.
//   schemas/*.json                      config_dir files, the manifest, the `--json` events, session files
//   schemas/protocol/*.json             the protocol envelope, history, tool results
//   schemas/protocol/hooks/*.json       each event's request data and reply data (HOOKS)
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { z } from "zod";
import { AtifTrajectory } from "../src/contract/atif.ts";
import {
  CheckpointEvent,
  CheckpointsFile,
  ForkEvent,
  RewindEvent,
  Snapshot,
} from "../src/contract/checkpoints.ts";
import { CompactionRecord } from "../src/contract/compaction.ts";
import { CompactionsReport } from "../src/contract/compactions.ts";
import { AuthFile } from "../src/contract/config.ts";
import { CONFIG_FILES } from "../src/contract/config-file-list.ts";
import { AgentEvent } from "../src/contract/events.ts";
import { SessionExport } from "../src/contract/export.ts";
import { GitStateRecord, GuardAllowedFile } from "../src/contract/guard.ts";
import { History } from "../src/contract/history.ts";
import { HOOKS, LocalRouteReply, ModelRouteReply } from "../src/contract/hooks.ts";
import { LspFile } from "../src/contract/lsp.ts";
import { Manifest } from "../src/contract/manifest.ts";
import { McpFile } from "../src/contract/mcp.ts";
import { HistorySummary, Reply, Request, ToolDecl, ToolResult } from "../src/contract/protocol.ts";
import {
  ResourceReplyData,
  ResourceRequestData,
  RuntimeResourceDecl,
} from "../src/contract/runtime-resources.ts";
import {
  CallProgress,
  CancelRequestData,
  PromptReplyData,
  PromptRequestData,
  RuntimePromptDecl,
  RuntimeToolDecl,
  ToolsReplyData,
  ToolsRequestData,
  ToolsWatchReplyData,
  ToolsWatchRequestData,
} from "../src/contract/runtime-tools.ts";
import { AnyCompactionEvent, EventLine, SessionMeta } from "../src/contract/session.ts";
import { SteerMessage } from "../src/contract/steering.ts";
import { TrustFile } from "../src/contract/trust.ts";
import { Usage } from "../src/contract/usage.ts";

const root = join(import.meta.dirname, "..", "schemas");

/** `compact_plan` → `compact-plan` (file names are kebab-case like the rest of the tree). */
const kebab = (s: string) => s.replaceAll("_", "-");

function write(dir: string, all: Record<string, z.ZodType>): number {
  // Regenerated from scratch: a schema whose zod source was removed must not linger.
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.endsWith(".json")) rmSync(join(dir, f));
  for (const [name, schema] of Object.entries(all)) {
    const json = z.toJSONSchema(schema, {
      target: "draft-2020-12",
      io: "input",
      unrepresentable: "any",
    }) as Record<string, unknown>;
    const rel = relative(root, join(dir, name));
    json.$id = `https://i-agent.dev/schemas/${rel}`;
    json.title = `i ${rel}`;
    writeFileSync(join(dir, name), `${JSON.stringify(json, null, 2)}\n`);
  }
  return Object.keys(all).length;
}

const files = write(root, {
  ...CONFIG_FILES,
  "auth.json": AuthFile,
  "manifest.json": Manifest,
  "events.json": AgentEvent,
  "session-meta.json": SessionMeta,
  "session-event-line.json": EventLine,
  "session-compaction-event.json": AnyCompactionEvent,
  "compaction-record.json": CompactionRecord,
  "session-compactions.json": CompactionsReport,
  "steering-queue-line.json": SteerMessage,
  "checkpoints.json": CheckpointsFile,
  "checkpoint-snapshot.json": Snapshot,
  "session-checkpoint-event.json": CheckpointEvent,
  "session-rewind-event.json": RewindEvent,
  "session-fork-event.json": ForkEvent,
  "session-export.json": SessionExport,
  "atif.json": AtifTrajectory,
  "trust.json": TrustFile,
  "guard-allowed.json": GuardAllowedFile,
  "session-git-state.json": GitStateRecord,
  "mcp.json": McpFile,
  "lsp.json": LspFile,
});
const protocol = write(join(root, "protocol"), {
  "request.json": Request,
  "reply.json": Reply,
  "history.json": History,
  "tool-decl.json": ToolDecl,
  "tool-result.json": ToolResult,
  "usage.json": Usage,
  "history-summary.json": HistorySummary,
  "runtime-tool-decl.json": RuntimeToolDecl,
  "tools-request.json": ToolsRequestData,
  "tools-reply.json": ToolsReplyData,
  "tools-watch-request.json": ToolsWatchRequestData,
  "tools-watch-reply.json": ToolsWatchReplyData,
  "cancel-request.json": CancelRequestData,
  "call-progress.json": CallProgress,
  "runtime-prompt-decl.json": RuntimePromptDecl,
  "prompt-request.json": PromptRequestData,
  "runtime-resource-decl.json": RuntimeResourceDecl,
  "resource-request.json": ResourceRequestData,
  "resource-reply.json": ResourceReplyData,
  "prompt-reply.json": PromptReplyData,
});
const hookSchemas: Record<string, z.ZodType> = {
  "before-compact-model-route.json": ModelRouteReply,
  "before-compact-local-route.json": LocalRouteReply,
};
for (const [event, { request, reply }] of Object.entries(HOOKS)) {
  hookSchemas[`${kebab(event)}-request.json`] = request;
  hookSchemas[`${kebab(event)}-reply.json`] = reply;
}
const hooks = write(join(root, "protocol", "hooks"), hookSchemas);
console.log(
  `wrote ${files} schemas to schemas/, ${protocol} to schemas/protocol/, ${hooks} to schemas/protocol/hooks/`,
);
