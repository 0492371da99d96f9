// The checks a reply passes before the host hands it on: a hello against the module's declarations, a
// hook reply against its shape and the fields it may not change, a tool result against its schema. A
// reply that fails one evicts the worker; kept here so the host reads as routing, not validation.
import { describeIssue } from "../contract/errors.ts";
import { HOOKS } from "../contract/hooks.ts";
import { HelloReplyData, type HookEvent } from "../contract/protocol.ts";
import type { ModuleName } from "../contract/registry.ts";
import { declarationDifference } from "./declarations.ts";
import { WorkerError } from "./errors.ts";
import { keptFieldProblem } from "./kept-fields.ts";
import type { Data, ReplyCheck } from "./process.ts";

export function checkHello(module: ModuleName, data: Data) {
  // Once per module and process start: zod's plain path, no parser compiled for it (see lib/json-file.ts).
  const parsed = HelloReplyData.safeParse(data, { jitless: true });
  if (!parsed.success) {
    return { reason: "handshake" as const, detail: describeIssue("invalid hello reply", parsed.error) };
  }
  const diff = declarationDifference(module, parsed.data);
  return diff
    ? { reason: "handshake" as const, detail: `declarations differ from module "${module}": ${diff}` }
    : undefined;
}

/**
 * A hook reply must be the complete updated data object: every field it was sent is still there, and
 * those the hook may not change keep their values. A reply that breaks this evicts the worker.
 */
export function kept(event: HookEvent, core: Data, sent: Data): ReplyCheck {
  return (reply) => {
    const detail = keptFieldProblem(event, core, sent, reply);
    return detail === undefined ? undefined : { reason: "malformed", detail };
  };
}

/**
 * Why one module's reply is not the hook's reply shape, or undefined. Checked once, here, for every module
 * of the pipeline, so the module at fault is the one named and callers get typed data.
 */
export function replyProblem(event: HookEvent, reply: Data): string | undefined {
  const parsed = HOOKS[event].reply.safeParse(reply);
  return parsed.success ? undefined : describeIssue("invalid reply", parsed.error);
}

export const checkToolReply: ReplyCheck = (data) => {
  const parsed = HOOKS.tool.reply.safeParse(data);
  if (parsed.success) return undefined;
  return { reason: "malformed", detail: describeIssue("sent an invalid tool result", parsed.error) };
};

/** A start failure, told from the point of view of the request that was waiting for it. */
export function rephrase(err: unknown, module: ModuleName, event: string): unknown {
  if (!(err instanceof WorkerError) || (err.module === module && err.event === event)) return err;
  const who =
    err.module === module ? "its handshake" : `the handshake of module "${err.module}" in the same process`;
  return new WorkerError(module, event, err.reason, `could not start: ${who} failed: ${err.detail}`);
}
