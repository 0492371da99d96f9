// A session's title, taken from its first request: what the user asked, not what came with it. Front
// matter, attached files and directory listings are left out, and so are the messages that are no
// request (a `!command`'s output, a steered line, a restored or interrupted marker, the note of an
// approval-mode change); the first line
// left is cut to about 60 characters at a word boundary.

import { contentText, type History, type Message } from "../contract/history.ts";
import { cutAtWord } from "../lib/cut-at-word.ts";

export const TITLE_MAX_CHARS = 60;

const ATTACHMENT = /<(file|directory) path="[^"]*">[\s\S]*?<\/\1>/g;
const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/;

/** A user message the user typed as a request (not context the console or the agent added). */
export function isRequest(m: Message): boolean {
  const meta = m.meta ?? {};
  return (
    m.role === "user" &&
    !meta.shell_command &&
    !meta.steered &&
    !meta.interrupted &&
    !meta.restored &&
    !meta.continuation &&
    !meta.summary &&
    meta.approval_mode === undefined // the note of an approval-mode change
  );
}

/** The title a request's text gives: its first line of its own, cleaned and cut; undefined when none. */
export function titleFrom(text: string): string | undefined {
  const own = text.replace(FRONT_MATTER, "").replace(ATTACHMENT, "");
  const line = own
    .split("\n")
    .map((l) => l.replace(/\s+/g, " ").trim())
    .find((l) => l !== "");
  return line ? cutAtWord(line, TITLE_MAX_CHARS) : undefined;
}

/** The title of a history: that of its first request. */
export function sessionTitle(h: History): string | undefined {
  const first = h.find(isRequest);
  return first ? titleFrom(contentText(first.content)) : undefined;
}
