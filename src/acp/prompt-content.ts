// A `session/prompt`'s content blocks as the message the model gets: text as typed, images as image parts,
// embedded resources and resource links attached the way `@file` attaches a file (the text in a tagged
// block after the user's words). What cannot be sent is refused with one line, before anything is sent.
import { readFileSync, statSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { Message } from "../contract/history.ts";

/** A linked or embedded file larger than this is named, not attached. */
export const ATTACH_MAX_BYTES = 256 * 1024;
/** The whole prompt, text and attachments: past this it is refused (say less, or attach less). */
export const PROMPT_MAX_CHARS = 4 * 1024 * 1024;

export class PromptProblem extends Error {}

type Part = Exclude<Message["content"], string>[number];

export interface PromptMessage {
  content: Message["content"];
  /** what the user typed, when the content differs from it */
  typed?: string;
}

function tagged(kind: "file" | "resource", where: string, body: string): string {
  const attr = kind === "file" ? "path" : "uri";
  return `<${kind} ${attr}="${where.replace(/"/g, "%22")}">\n${body.endsWith("\n") ? body : `${body}\n`}</${kind}>`;
}

/** A file: URI as a path shown relative to the workspace when it is inside it. */
function shownPath(uri: string, workspace: string): { path: string; shown: string } | undefined {
  if (!uri.startsWith("file:")) return undefined;
  let path: string;
  try {
    path = fileURLToPath(uri);
  } catch {
    return undefined;
  }
  const rel = relative(workspace, path);
  return { path, shown: rel && !rel.startsWith("..") ? rel : path };
}

function linkBlock(b: Extract<ContentBlock, { type: "resource_link" }>, workspace: string): string {
  const file = shownPath(b.uri, workspace);
  if (!file) return `[linked: ${b.name} <${b.uri}>]`;
  let size: number;
  try {
    const st = statSync(file.path);
    if (!st.isFile()) return `[linked: ${file.shown} (not a file)]`;
    size = st.size;
  } catch {
    throw new PromptProblem(`the linked file ${file.shown} cannot be read; nothing was sent`);
  }
  if (size > ATTACH_MAX_BYTES)
    return `[linked: ${file.shown} (${size} bytes, too large to attach; read it with a tool)]`;
  const text = readFileSync(file.path, "utf8");
  if (text.includes("\u0000")) return `[linked: ${file.shown} (binary, not attached)]`;
  return tagged("file", file.shown, text);
}

function resourceBlock(b: Extract<ContentBlock, { type: "resource" }>, workspace: string): string | Part {
  const r = b.resource;
  const file = shownPath(r.uri, workspace);
  if ("text" in r) return file ? tagged("file", file.shown, r.text) : tagged("resource", r.uri, r.text);
  if (r.mimeType?.startsWith("image/")) return { type: "image", media_type: r.mimeType, data: r.blob };
  return `[attached: ${file?.shown ?? r.uri} (${r.mimeType ?? "binary"}, not sent to the model)]`;
}

/** The blocks as one user message. `images`: the model takes images (else an image is refused). */
export function promptMessage(
  blocks: readonly ContentBlock[],
  workspace: string,
  images: boolean,
): PromptMessage {
  const typed: string[] = [];
  const attached: string[] = [];
  const pictures: Part[] = [];
  for (const b of blocks) {
    if (b.type === "text") typed.push(b.text);
    else if (b.type === "image") {
      if (!images)
        throw new PromptProblem(
          "this model takes no images (config.json models.NAME.images); choose a model that does, or send text",
        );
      pictures.push({ type: "image", media_type: b.mimeType, data: b.data });
    } else if (b.type === "audio") throw new PromptProblem("audio prompts are not supported; send text");
    else if (b.type === "resource_link") attached.push(linkBlock(b, workspace));
    else if (b.type === "resource") {
      const r = resourceBlock(b, workspace);
      if (typeof r === "string") attached.push(r);
      else if (images) pictures.push(r);
      else throw new PromptProblem("this model takes no images; the attached image was not sent");
    }
  }
  const words = typed.join("\n");
  const text = attached.length > 0 ? `${words}\n\n${attached.join("\n\n")}` : words;
  const size = text.length + pictures.reduce((n, p) => n + (p.type === "image" ? p.data.length : 0), 0);
  if (size > PROMPT_MAX_CHARS)
    throw new PromptProblem(
      `the prompt is ${size} characters with its attachments, more than ${PROMPT_MAX_CHARS}; send less, or attach files as links`,
    );
  if (text.trim() === "" && pictures.length === 0)
    throw new PromptProblem("the prompt is empty; type a message");
  if (pictures.length === 0) return { content: text, ...(text !== words ? { typed: words } : {}) };
  const content: Part[] = [...(text ? [{ type: "text" as const, text }] : []), ...pictures];
  return { content, typed: words };
}
