// events.jsonl: the append-only log of a session. Every message and every compaction goes here, so a
// history can be rebuilt from it and nothing is ever lost. Appends that matter are fsynced; a line torn
// by a crash is skipped on read and never glued to the next append.
import {
  close,
  closeSync,
  fstatSync,
  fsync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readSync,
} from "node:fs";
import type { History, Message } from "../contract/history.ts";
import { BaseEvent, EventLine, MessageEvent, TruncateEvent } from "../contract/session.ts";
import { crashPoint } from "../lib/fs-boundary.ts";
import { validateHistory } from "../lib/validate-history.ts";
import { writeAll } from "../lib/write-all.ts";
import { parseCompaction, resolvePieces } from "./compaction-pieces.ts";

export class EventsLog {
  /** whether the file may end in a torn line; checked once, before this instance's first append */
  private checkedTail = false;

  constructor(readonly path: string) {}

  /** Append complete lines (each object one JSON line) in one write; fsync when `durable`. Returns the bytes written. */
  append(events: readonly Record<string, unknown>[], durable = true): number {
    if (events.length === 0) return 0;
    const fd = this.write(events);
    try {
      if (durable) {
        crashPoint("fsync", this.path);
        fsyncSync(fd.fd);
      }
      return fd.bytes;
    } finally {
      closeSync(fd.fd);
    }
  }

  /**
   * Append like `append`, but fsync in the background (the thread pool), so the caller can do other work
   * (send the next worker request) while the disk syncs. `synced` resolves once the lines are durable and
   * rejects if the fsync fails; the lines are in the file (for every reader, and across a kill -9) at once.
   */
  appendSyncLater(events: readonly Record<string, unknown>[]): { bytes: number; synced: Promise<void> } {
    if (events.length === 0) return { bytes: 0, synced: Promise.resolve() };
    const w = this.write(events);
    try {
      crashPoint("fsync", this.path);
    } catch (err) {
      closeSync(w.fd);
      throw err;
    }
    const synced = new Promise<void>((resolve, reject) => {
      fsync(w.fd, (err) => {
        close(w.fd, () => (err ? reject(err) : resolve()));
      });
    });
    return { bytes: w.bytes, synced };
  }

  /** Open the log and write the lines in one write; the caller syncs and closes the descriptor. */
  private write(events: readonly Record<string, unknown>[]): { fd: number; bytes: number } {
    let text = "";
    for (const e of events) text += `${JSON.stringify(e)}\n`;
    const fd = openSync(this.path, "a+", 0o600);
    let before: number | undefined;
    try {
      if (!this.checkedTail) {
        // A crash mid-append leaves a last line without "\n": start ours on a fresh line.
        if (!endsWithNewline(fd)) text = `\n${text}`;
        this.checkedTail = true;
      }
      const bytes = Buffer.from(text, "utf8");
      before = fstatSync(fd).size;
      crashPoint("write", this.path);
      writeAll(fd, bytes);
      return { fd, bytes: bytes.length };
    } catch (err) {
      // A write cut short (the disk is full) must not leave part of a line: cut the file back to where
      // it was; if even that fails, the next append checks the tail again and starts on a fresh line.
      try {
        if (before !== undefined) ftruncateSync(fd, before);
      } catch {
        this.checkedTail = false;
      }
      closeSync(fd);
      throw err;
    }
  }

  /**
   * The lines after byte `offset`, which must be where a line starts (0, or just after a newline);
   * undefined when it is not, or the file is shorter (it is not the log that offset was taken from).
   */
  linesFrom(offset: number): string[] | undefined {
    let fd: number;
    try {
      fd = openSync(this.path, "r");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return offset === 0 ? [] : undefined;
      throw err;
    }
    try {
      const size = fstatSync(fd).size;
      if (size < offset) return undefined;
      const start = offset > 0 ? offset - 1 : 0;
      const b = Buffer.allocUnsafe(size - start);
      let got = 0;
      while (got < b.length) {
        const n = readSync(fd, b, got, b.length - got, start + got);
        if (n === 0) break;
        got += n;
      }
      if (got < b.length) return undefined;
      if (offset > 0 && b[0] !== 10) return undefined;
      return b
        .subarray(offset - start)
        .toString("utf8")
        .split("\n");
    } finally {
      closeSync(fd);
    }
  }

  /** Every well-formed line, and how many lines could not be read (torn by a crash, or edited). */
  read(): { events: EventLine[]; skipped: number } {
    return parseEventLines(this.lines());
  }

  /**
   * The last lines of the file, read backwards in blocks until they hold `wholeStates` lines that start
   * a whole-history event (`base`, or `compaction` with its `history`), or the file's start: opening a long session reads
   * its last epochs, not its whole history of compactions. `whole` says whether that reached the start.
   */
  tailLines(wholeStates: number): { lines: string[]; whole: boolean } {
    let fd: number;
    try {
      fd = openSync(this.path, "r");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return { lines: [], whole: true };
      throw err;
    }
    try {
      const size = fstatSync(fd).size;
      const blocks: Buffer[] = [];
      let pos = size;
      let found = 0;
      while (pos > 0 && found < wholeStates) {
        const len = Math.min(TAIL_BLOCK, pos);
        pos -= len;
        const b = Buffer.allocUnsafe(len);
        readSync(fd, b, 0, len, pos);
        // Count the line starts that begin in this block (their prefix may run into the next one).
        const next = blocks[0]?.subarray(0, 128) ?? Buffer.alloc(0);
        found += countWholeStateStarts(Buffer.concat([b, next]), len);
        blocks.unshift(b);
      }
      const text = Buffer.concat(blocks).toString("utf8");
      const lines = text.split("\n");
      // Not at the file's start: the first line is only the end of one; drop it.
      if (pos > 0) lines.shift();
      return { lines, whole: pos === 0 };
    } finally {
      closeSync(fd);
    }
  }

  /** The raw lines of the file (none when it does not exist). */
  lines(): string[] {
    try {
      return readFileSync(this.path, "utf8").split("\n");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
  }
}

const TAIL_BLOCK = 1 << 20;
/**
 * How a line holding a whole state starts: a base, or a compaction with its whole history. A compaction
 * written by reference (`pieces` first) is not one: replay needs what came before it.
 */
export const WHOLE_STATE_HEAD = String.raw`\{"ts":"[^"\n]*","type":"(?:compaction|base)","(?!pieces")`;
const WHOLE_STATE_START = new RegExp(`\n${WHOLE_STATE_HEAD}`, "g");

/** Lines starting a base or compaction event whose newline lies before `limit` (bytes, as latin1). */
function countWholeStateStarts(bytes: Buffer, limit: number): number {
  let n = 0;
  for (const m of bytes.toString("latin1").matchAll(WHOLE_STATE_START)) if (m.index < limit) n++;
  return n;
}

/** The well-formed events among `lines`, and how many non-blank lines were not. */
export function parseEventLines(lines: readonly string[]): { events: EventLine[]; skipped: number } {
  const events: EventLine[] = [];
  let skipped = 0;
  for (const line of lines) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      skipped++;
      continue;
    }
    const r = EventLine.safeParse(value);
    if (r.success) events.push(r.data);
    else skipped++;
  }
  return { events, skipped };
}

function endsWithNewline(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return true;
  const b = Buffer.alloc(1);
  readSync(fd, b, 0, 1, size - 1);
  return b[0] === 10;
}

/**
 * The history the events describe, starting from `start` (empty: the log's beginning): message events
 * set history[index] (dropping anything after it), truncate events shorten it, base and compaction
 * events replace it. An event that does not fit (a gap left by a lost line) is skipped; the result is cut
 * to its longest valid prefix, so it is always a usable history.
 */
export function replayEvents(
  events: readonly EventLine[],
  onState?: (history: readonly Message[]) => void,
  start: History = [],
): { history: History; problems: number } {
  let history: Message[] = [...start];
  let problems = 0;
  for (const e of events) {
    if (onState) onState(history);
    if (e.type === "message") {
      const m = MessageEvent.safeParse(e);
      if (!m.success || m.data.index > history.length) {
        problems++;
        continue;
      }
      history.length = m.data.index;
      history.push(m.data.message);
    } else if (e.type === "truncate") {
      const t = TruncateEvent.safeParse(e);
      if (t.success && t.data.length <= history.length) history.length = t.data.length;
      else problems++;
    } else if (e.type === "base") {
      const b = BaseEvent.safeParse(e);
      if (b.success) history = [...b.data.history];
      else problems++;
    } else if (e.type === "compaction") {
      const next = compactedHistory(e, history);
      if (next) history = next;
      else problems++;
    }
  }
  if (onState) onState(history);
  const valid = longestValidPrefix(history);
  if (valid < history.length) {
    problems++;
    history.length = valid;
  }
  return { history, problems };
}

/**
 * The history compaction event `e` leaves on top of `before` (the history just before it); undefined
 * when it is malformed or, written by reference, does not fit `before` (a gap left by a lost line).
 */
export function compactedHistory(e: EventLine, before: History): Message[] | undefined {
  const c = parseCompaction(e);
  if (!c) return undefined;
  if ("history" in c) return [...c.history];
  if (c.messagesBefore !== before.length) return undefined;
  return resolvePieces(c.pieces, before);
}

/** Validity (with a batch allowed to be in progress at the end) only shrinks as a history grows. */
function longestValidPrefix(h: History): number {
  const ok = (n: number) =>
    n === 0 || validateHistory(h.slice(0, n), { allowPendingToolCalls: true }) === undefined;
  if (ok(h.length)) return h.length;
  let lo = 0;
  let hi = h.length; // ok(lo) holds, ok(hi) does not
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}
