// Generates JSON Schemas from the zod schemas (the single source of truth), so editors can validate config
// files and worker authors in any language can validate what they send and receive.
//   schemas/*.json            config_dir files and the manifest
//   schemas/protocol/*.json   worker protocol messages and the compaction hooks' data
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import {
  AfterCompactReply,
  BudgetInput,
  BudgetOutput,
  CommitReply,
  LocalRouteReply,
  ModelRouteReply,
  PlanReply,
} from "../src/contract/compaction.ts";
import { AuthFile, CONFIG_FILES } from "../src/contract/config.ts";
import { History } from "../src/contract/history.ts";
import { Manifest } from "../src/contract/manifest.ts";
import {
  HelloReplyData,
  HelloRequestData,
  HistorySummary,
  Reply,
  Request,
  ToolEventData,
  ToolResult,
} from "../src/contract/protocol.ts";

const root = join(import.meta.dirname, "..", "schemas");

function write(dir: string, all: Record<string, z.ZodType>): number {
  mkdirSync(dir, { recursive: true });
  for (const [name, schema] of Object.entries(all)) {
    const json = z.toJSONSchema(schema, {
      target: "draft-2020-12",
      io: "input",
      unrepresentable: "any",
    }) as Record<string, unknown>;
    const rel = dir === root ? name : `protocol/${name}`;
    json.$id = `https://i-agent.dev/schemas/${rel}`;
    json.title = `i ${rel}`;
    writeFileSync(join(dir, name), `${JSON.stringify(json, null, 2)}\n`);
  }
  return Object.keys(all).length;
}

const files = write(root, { ...CONFIG_FILES, "auth.json": AuthFile, "manifest.json": Manifest });
const protocol = write(join(root, "protocol"), {
  "request.json": Request,
  "reply.json": Reply,
  "hello-request-data.json": HelloRequestData,
  "hello-reply-data.json": HelloReplyData,
  "tool-event-data.json": ToolEventData,
  "tool-result.json": ToolResult,
  "history.json": History,
  "history-summary.json": HistorySummary,
  "budget-input.json": BudgetInput,
  "budget-output.json": BudgetOutput,
  "compact-plan-reply.json": PlanReply,
  "before-compact-model-reply.json": ModelRouteReply,
  "before-compact-local-reply.json": LocalRouteReply,
  "after-compact-reply.json": AfterCompactReply,
  "before-compact-commit-reply.json": CommitReply,
});
console.log(`wrote ${files} file schemas to schemas/ and ${protocol} protocol schemas to schemas/protocol/`);
