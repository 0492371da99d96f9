// The history contract: an OpenAI-chat-like array of messages; history[0] is the system message.
import { z } from "zod";

export const TextPart = z.strictObject({ type: z.literal("text"), text: z.string() });
export const ImagePart = z.strictObject({
  type: z.literal("image"),
  media_type: z.string().regex(/^image\/[a-z0-9.+-]+$/i, "must be an image media type such as image/png"),
  /** base64 without a data: prefix */
  data: z.string(),
});
export const Part = z.discriminatedUnion("type", [TextPart, ImagePart]);
export const Content = z.union([z.string(), z.array(Part)]);

export const ToolCall = z.lazy(() =>
  z.strictObject({
    id: z.string().min(1),
    name: z.string().min(1),
    /** the raw JSON text of the arguments, exactly as the model produced it */
    arguments: z.string(),
  }),
);

export const Role = z.enum(["system", "user", "assistant", "tool"]);

export const Message = z.lazy(() =>
  z.strictObject({
    role: Role,
    content: Content,
    tool_calls: z.array(ToolCall).optional(),
    tool_call_id: z.string().optional(),
    /** core bookkeeping: timestamps, usage, summary / untrusted markers, truncation notes */
    meta: z.record(z.string(), z.unknown()).optional(),
    /** private wire state (e.g. Responses reasoning items); stripped before summarisation */
    adapter: z.record(z.string(), z.unknown()).optional(),
  }),
);

export const History = z.array(Message);

export type TextPart = z.infer<typeof TextPart>;
export type ImagePart = z.infer<typeof ImagePart>;
export type Part = z.infer<typeof Part>;
export type Content = z.infer<typeof Content>;
export type ToolCall = z.infer<typeof ToolCall>;
export type Role = z.infer<typeof Role>;
export type Message = z.infer<typeof Message>;
export type History = z.infer<typeof History>;

/** The content as readable text: its text parts, and a `[image <media type>]` line for each image. */
export function contentWithImageMarkers(content: Content): string {
  if (typeof content === "string") return content;
  return content.map((p) => (p.type === "text" ? p.text : `[image ${p.media_type}]`)).join("\n");
}

/** The plain text of a message's content (image parts are skipped). */
export function contentText(content: Content): string {
  if (typeof content === "string") return content;
  let out = "";
  for (const p of content) if (p.type === "text") out += (out ? "\n" : "") + p.text;
  return out;
}
