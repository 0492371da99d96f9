// history.json and .precompact.json: a whole history, one message per line so a person can read and
// diff it. Written atomically; read back with a one-line error naming the file and the fix.
import { UserError } from "../contract/errors.ts";
import type { History, Message } from "../contract/history.ts";
import { type AtomicOptions, writeFileAtomic } from "../lib/atomic-write.ts";
import { readJson } from "../lib/json-file.ts";
import { messageJson } from "../lib/message-json.ts";
import { validateHistory } from "../lib/validate-history.ts";

export function formatHistory(h: History): string {
  if (h.length === 0) return "[]\n";
  let out = "[\n";
  // The per-message JSON cache: a checkpoint rewrites the whole history, whose messages are mostly old.
  for (let i = 0; i < h.length; i++) out += `${messageJson(h[i] as Message)}${i < h.length - 1 ? "," : ""}\n`;
  return `${out}]\n`;
}

export function writeHistoryFile(path: string, h: History, opts: AtomicOptions = {}): void {
  writeFileAtomic(path, formatHistory(h), 0o600, opts);
}

/**
 * The history in `path`, or undefined when the file does not exist. A file that is not a valid history
 * (someone edited it) is a UserError that says how to recover.
 */
export function readHistoryFile(path: string): History | undefined {
  const fix = "fix it by hand, or delete it to rebuild the session from events.jsonl next to it";
  const value = readJson(path, fix);
  if (value === undefined) return undefined;
  const reason = validateHistory(value, { allowPendingToolCalls: true });
  if (reason !== undefined) throw new UserError(`${path}: not a valid history: ${reason}; ${fix}`);
  return value as History;
}
