// `@SERVER:URI` mentions (Claude Code's form, e.g. `@docs:file:///guide.md`): the contents of an MCP
// server's resource are attached to the message like a file's — the same kind of block, the same one
// line on screen, bounded per resource and together with the files. Text is attached; binary contents
// are named in a note. A mention that cannot be read (no such server, no such resource, the server
// down) stops the message: it is never sent with some of its attachments missing.
import type { ResourceContent, RuntimeResourceDecl } from "../contract/runtime-resources.ts";
import { formatBytes } from "../lib/truncate.ts";

/** What reads resources: the session's runtime (undefined when no module offers any). */
export interface ResourceSource {
  list(): RuntimeResourceDecl[];
  read(server: string, uri: string): Promise<ResourceContent[]>;
}

/** `SERVER:SCHEME:…` — a server name, then a URI (it has a scheme); a path like `a.ts:12` is not one. */
const RESOURCE_TOKEN = /^([a-zA-Z0-9_.-]{1,48}):([a-zA-Z][a-zA-Z0-9+.-]*:\S+)$/;

export interface ResourceMention {
  server: string;
  uri: string;
}

/** The token (without `@`) as a resource mention, or undefined. */
export function resourceMention(token: string): ResourceMention | undefined {
  const m = RESOURCE_TOKEN.exec(token);
  return m ? { server: m[1] as string, uri: m[2] as string } : undefined;
}

/** `@SERVER:URI` tokens: at the start or after whitespace; trailing punctuation is not part of the URI. */
export function findResourceMentions(text: string): ResourceMention[] {
  const out: ResourceMention[] = [];
  for (const m of text.matchAll(/(?:^|\s)@(\S+)/g)) {
    const token = (m[1] as string).replace(/[,;!?)\]}'"]+$/, "").replace(/[.:]$/, "");
    const r = resourceMention(token);
    if (r && !out.some((o) => o.server === r.server && o.uri === r.uri)) out.push(r);
  }
  return out;
}

/** The first `max` bytes of `text`, cut at a line end (never inside a character or a line). */
function cutText(text: string, max: number): string {
  const buf = Buffer.from(text, "utf8");
  if (buf.length <= max) return text;
  const head = buf
    .subarray(0, max)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  const nl = head.lastIndexOf("\n");
  return nl > 0 ? head.slice(0, nl + 1) : head;
}

export interface AttachedResources {
  /** the blocks to append to the message */
  blocks: string[];
  notes: string[];
  /** bytes of text attached */
  used: number;
}

/** One mention's blocks and note, within `budget` bytes; throws (one line) when it cannot be read. */
async function attachOne(
  m: ResourceMention,
  source: ResourceSource | undefined,
  budget: number,
  perResource: number,
): Promise<AttachedResources> {
  const label = `@${m.server}:${m.uri}`;
  if (!source) throw new Error(`${label}: no MCP server "${m.server}" (none is configured: mcp.json)`);
  let contents: ResourceContent[];
  try {
    contents = await source.read(m.server, m.uri);
  } catch (err) {
    throw new Error(`${label}: ${(err as Error).message}`);
  }
  const out: AttachedResources = { blocks: [], notes: [], used: 0 };
  let room = Math.min(perResource, budget);
  let total = 0;
  let cut = false;
  const binary: string[] = [];
  for (const c of contents) {
    if (c.text === undefined) {
      binary.push(`${c.mime_type ?? "binary"}, ${formatBytes(c.binary_bytes ?? 0)}`);
      continue;
    }
    const size = Buffer.byteLength(c.text);
    total += size;
    const text = cutText(c.text, Math.max(0, room));
    const bytes = Buffer.byteLength(text);
    room -= bytes;
    out.used += bytes;
    if (bytes < size || c.cut) cut = true;
    const tail = bytes < size || c.cut ? `[cut: only the first ${formatBytes(bytes)} are attached]` : "";
    const body = `${text}${tail}`;
    const where = `${m.server}:${c.uri}`.replaceAll('"', "%22");
    out.blocks.push(`<resource uri="${where}">\n${body.endsWith("\n") ? body : `${body}\n`}</resource>`);
  }
  if (out.blocks.length > 0) {
    const size = cut ? `first ${formatBytes(out.used)} of ${formatBytes(total)}` : formatBytes(total);
    out.notes.push(`attached ${label} (${size})`);
  }
  if (binary.length > 0) out.notes.push(`${label}: binary contents not attached (${binary.join("; ")})`);
  if (contents.length === 0) out.notes.push(`${label}: the server returned no contents`);
  return out;
}

/**
 * The blocks for every resource mentioned in `text`, within `budget` bytes of text in all (what the
 * files left), one after the other so each gets what the earlier ones left. Throws one line naming the
 * mention when any of them cannot be read.
 */
export async function attachResources(
  text: string,
  source: ResourceSource | undefined,
  budget: number,
  perResource: number,
): Promise<AttachedResources> {
  const out: AttachedResources = { blocks: [], notes: [], used: 0 };
  for (const m of findResourceMentions(text)) {
    const left = budget - out.used;
    if (left <= 0) {
      out.notes.push(`@${m.server}:${m.uri}: not attached: the attachments already reach the limit`);
      continue;
    }
    const r = await attachOne(m, source, left, perResource);
    out.blocks.push(...r.blocks);
    out.notes.push(...r.notes);
    out.used += r.used;
  }
  return out;
}
