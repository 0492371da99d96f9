// A session exported as JSON (`/export FILE.json`, `i sessions --export ID --format json`): the
// conversation as a reader sees it, each message marked for what it is (a compaction summary, a message
// a compaction restored, a tool result), with the session's own record.
import { z } from "zod";

export const ExportToolCall = z.lazy(() =>
  z.strictObject({
    id: z.string(),
    name: z.string(),
    /** the arguments as the model sent them (JSON text) */
    arguments: z.string(),
  }),
);

export const ExportMessage = z.lazy(() =>
  z.strictObject({
    index: z.number().int().nonnegative(),
    role: z.enum(["system", "user", "assistant", "tool"]),
    /**
     * what the message is: `message` (typed or written), `summary` (a compaction's summary of what came
     * before), `restored` (put back by a compaction), `command` (the output of the user's own `!command`),
     * `added` (written for the model by `i` or the user's hooks, never typed: a change of approval mode, a
     * hook's context, an interruption), `tool_result`, `system`
     */
    kind: z.enum(["system", "message", "summary", "restored", "command", "added", "tool_result"]),
    ts: z.string().optional(),
    /** the text (images named by a marker, never embedded) */
    text: z.string(),
    tool_calls: z.array(ExportToolCall).optional(),
    tool_call_id: z.string().optional(),
    is_error: z.boolean().optional(),
  }),
);
export type ExportMessage = z.infer<typeof ExportMessage>;

export const SessionExport = z.lazy(() =>
  z.strictObject({
    format: z.literal("i-session-export"),
    version: z.literal(1),
    exported: z.string(),
    session: z.strictObject({
      id: z.string(),
      workspace: z.string(),
      title: z.string().optional(),
      created: z.string(),
      updated: z.string(),
      provider: z.string().optional(),
      model: z.string().optional(),
      /** the session this one was forked from */
      parent: z.string().optional(),
      compactions: z.number().int().nonnegative(),
    }),
    messages: z.array(ExportMessage),
  }),
);
export type SessionExport = z.infer<typeof SessionExport>;
