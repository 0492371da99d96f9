// `@path` mentions: the file's text (or a directory's listing) is attached to the message, resolved and
// confined like the file tools' paths, bounded per file and in total with a note saying what was cut.
// A mention that names nothing (an e-mail address, a handle) stays plain text, and the user is told.
import { closeSync, fstatSync, readdirSync, statSync } from "node:fs";
import { loadIgnore } from "../lib/gitignore.ts";
import { formatBytes } from "../lib/truncate.ts";
import { SNIFF_BYTES, sniffFileKind } from "../tools/file-kind.ts";
import { resolveInWorkspace } from "../tools/paths.ts";
import { openRegularFile, readAll } from "../tools/read.ts";
import { resourceMention } from "./resource-mentions.ts";

export const MENTION_MAX_FILE_BYTES = 64 * 1024;
export const MENTION_MAX_TOTAL_BYTES = 256 * 1024;
export const MENTION_MAX_ENTRIES = 200;

export interface Expanded {
  /** the message to send: the user's text, then the attachments */
  text: string;
  /** one line per mention, for the screen */
  notes: string[];
  /** bytes of text attached (what is left of the total goes to `@SERVER:URI` resources) */
  used?: number;
}

/**
 * `@path` tokens: at the start or after whitespace; trailing punctuation is not part of the path. An
 * `@SERVER:URI` token is an MCP resource's, not a path.
 */
export function findMentions(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\s)@([^\s@]+)/g)) {
    const p = (m[1] as string).replace(/[,;:!?)\]}'"]+$/, "").replace(/\.$/, "");
    if (p !== "" && !out.includes(p) && !resourceMention(p)) out.push(p);
  }
  return out;
}

function listing(real: string, rel: string, root: string): { body: string; note: string } {
  const ignored = loadIgnore(root);
  const base = rel === "." ? "" : `${rel.replace(/\/$/, "")}/`;
  const entries = readdirSync(real, { withFileTypes: true })
    .filter((e) => !ignored(`${base}${e.name}`, e.isDirectory()))
    .map((e) => `${e.name}${e.isDirectory() ? "/" : ""}`)
    .sort();
  const shown = entries.slice(0, MENTION_MAX_ENTRIES);
  const cut = entries.length - shown.length;
  const body = shown.join("\n") + (cut > 0 ? `\n[${cut} more entries not listed]` : "");
  return { body, note: `${entries.length} entries${cut > 0 ? `, first ${MENTION_MAX_ENTRIES} listed` : ""}` };
}

/** The attachment of one file; `bytes` is -1 when it is not text and is not attached. */
function fileText(real: string, rel: string, budget: number): { body: string; note: string; bytes: number } {
  const fd = openRegularFile(real, rel);
  try {
    const size = fstatSync(fd).size;
    const take = Math.min(size, MENTION_MAX_FILE_BYTES, budget);
    const buf = readAll(fd, take);
    const kind = sniffFileKind(buf.subarray(0, SNIFF_BYTES));
    if (kind.kind !== "text") {
      const what = kind.kind === "image" ? kind.mediaType : kind.what;
      return { body: "", note: `not attached (${what})`, bytes: -1 };
    }
    // Cut at a line end so a multi-byte character or a line is never split.
    let text = buf.toString("utf8");
    if (take < size) {
      const nl = text.lastIndexOf("\n");
      if (nl > 0) text = text.slice(0, nl + 1);
      const note = `first ${formatBytes(Buffer.byteLength(text))} of ${formatBytes(size)}`;
      return {
        body: `${text}[cut: the file has ${formatBytes(size)}; only the ${note.split(" of ")[0]} are attached — use the read tool for the rest]`,
        note,
        bytes: Buffer.byteLength(text),
      };
    }
    return { body: text, note: formatBytes(size), bytes: buf.length };
  } finally {
    closeSync(fd);
  }
}

export function expandMentions(text: string, workspace: string): Expanded {
  const notes: string[] = [];
  const parts: string[] = [];
  let budget = MENTION_MAX_TOTAL_BYTES;
  const root = resolveInWorkspace(workspace, ".");
  for (const rel of findMentions(text)) {
    let real: string;
    try {
      real = resolveInWorkspace(workspace, rel);
    } catch (err) {
      notes.push(`@${rel}: not attached: ${(err as Error).message}`);
      continue;
    }
    let isDir: boolean;
    try {
      isDir = statSync(real).isDirectory();
    } catch {
      notes.push(`@${rel}: no such file in the workspace; sent as plain text`);
      continue;
    }
    try {
      if (isDir) {
        const { body, note } = listing(real, rel, root);
        parts.push(`<directory path="${rel}">\n${body}\n</directory>`);
        notes.push(`attached @${rel} (directory listing, ${note})`);
      } else if (budget <= 0) {
        notes.push(
          `@${rel}: not attached: the attachments already reach ${formatBytes(MENTION_MAX_TOTAL_BYTES)}`,
        );
      } else {
        const { body, note, bytes } = fileText(real, rel, budget);
        if (bytes < 0) {
          notes.push(`@${rel}: ${note}`);
          continue;
        }
        budget -= bytes;
        parts.push(`<file path="${rel}">\n${body.endsWith("\n") ? body : `${body}\n`}</file>`);
        notes.push(`attached @${rel} (${note})`);
      }
    } catch (err) {
      notes.push(`@${rel}: not attached: ${(err as Error).message}`);
    }
  }
  const used = MENTION_MAX_TOTAL_BYTES - budget;
  if (parts.length === 0) return { text, notes, used };
  return { text: `${text}\n\n${parts.join("\n\n")}`, notes, used };
}
