// An MCP tool result in our history's terms: text parts, images as image parts (the core leaves them out,
// with a note, for a model that takes none), resource links and embedded resources as text,
// structuredContent as JSON text unless a text part already carries it, isError as is_error. Bounded here
// too, so a server's huge answer can never make a reply line too long for the protocol.

import type { Part } from "../../src/contract/history.ts";
import type { ToolResult } from "../../src/contract/protocol.ts";
import { checkImage } from "../../src/lib/image-info.ts";
import { jsonEqual } from "../../src/lib/json-equal.ts";

/** Text a single result may carry into the reply; the core caps it further for the model. */
export const MAX_RESULT_TEXT = 1_000_000;
/** Largest image forwarded (base64 characters); bigger ones are named instead. */
const MAX_IMAGE_BASE64 = 14 * 1024 * 1024;

interface McpContentItem {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  title?: string;
  description?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
  toolResult?: unknown;
}

function bytesOf(base64: string): number {
  return Math.floor((base64.length * 3) / 4);
}

function itemPart(item: McpContentItem): Part {
  switch (item.type) {
    case "text":
      return { type: "text", text: item.text ?? "" };
    case "image":
      if (item.data && item.mimeType && item.data.length <= MAX_IMAGE_BASE64) {
        // A damaged image would make the provider refuse this request and every later one.
        const checked = checkImage(Buffer.from(item.data, "base64"));
        if (typeof checked === "string")
          return { type: "text", text: `[image ${item.mimeType} left out: ${checked}]` };
        return { type: "image", media_type: checked.mediaType, data: item.data };
      }
      return {
        type: "text",
        text: `[image ${item.mimeType ?? "?"} of ${bytesOf(item.data ?? "")} bytes left out: too large to attach]`,
      };
    case "audio":
      return {
        type: "text",
        text: `[audio ${item.mimeType ?? "?"} of ${bytesOf(item.data ?? "")} bytes left out: models here take no audio]`,
      };
    case "resource_link": {
      const what = [item.title ?? item.name, item.mimeType && `(${item.mimeType})`].filter(Boolean).join(" ");
      const desc = item.description ? ` — ${item.description}` : "";
      return { type: "text", text: `[resource link] ${item.uri ?? "?"}${what ? ` ${what}` : ""}${desc}` };
    }
    case "resource": {
      const r = item.resource ?? {};
      if (typeof r.text === "string")
        return {
          type: "text",
          text: `[resource ${r.uri ?? "?"}${r.mimeType ? ` ${r.mimeType}` : ""}]\n${r.text}`,
        };
      return {
        type: "text",
        text: `[resource ${r.uri ?? "?"} ${r.mimeType ?? ""}: ${bytesOf(r.blob ?? "")} bytes of binary content left out]`,
      };
    }
    default:
      return { type: "text", text: `[content of type "${String(item.type)}" left out: not supported]` };
  }
}

function carriesStructured(parts: Part[], structured: unknown): boolean {
  return parts.some((p) => {
    if (p.type !== "text") return false;
    try {
      return jsonEqual(JSON.parse(p.text), structured);
    } catch {
      return false;
    }
  });
}

/** Text parts share MAX_RESULT_TEXT; what is cut says so. */
function bound(parts: Part[]): Part[] {
  let left = MAX_RESULT_TEXT;
  return parts.map((p) => {
    if (p.type !== "text") return p;
    if (p.text.length <= left) {
      left -= p.text.length;
      return p;
    }
    const kept = p.text.slice(0, Math.max(0, left));
    left = 0;
    return {
      type: "text",
      text: `${kept}\n[… ${p.text.length - kept.length} characters cut: the result was too large]`,
    };
  });
}

export function mapCallResult(r: McpCallResult): ToolResult {
  const items = Array.isArray(r.content) ? (r.content as McpContentItem[]) : [];
  let parts = items.map(itemPart);
  // Servers on the old protocol answer with `toolResult` instead of content.
  if (items.length === 0 && r.toolResult !== undefined)
    parts.push({ type: "text", text: JSON.stringify(r.toolResult) });
  if (r.structuredContent !== undefined && !carriesStructured(parts, r.structuredContent))
    parts.push({ type: "text", text: `structuredContent: ${JSON.stringify(r.structuredContent)}` });
  parts = bound(parts);
  const isError = r.isError === true;
  if (parts.length === 0)
    return { content: isError ? "the tool failed (no details)" : "(no output)", is_error: isError };
  if (parts.every((p) => p.type === "text"))
    return { content: parts.map((p) => (p as { text: string }).text).join("\n"), is_error: isError };
  return { content: parts, is_error: isError };
}
