// Reading one file for grep: in fixed-size chunks, line by line, stopping as soon as the caller has
// enough matches, so a huge file costs only what is read of it. A NUL byte in the first chunk marks the
// file as binary and it is skipped, like other search tools do.
//
// Bounded whatever the file holds: a line longer than maxLineChars is matched on its first maxLineChars
// characters only and the rest of it is skipped as raw bytes up to the next newline (a 1 GB file that is
// one line costs one chunk of memory, not a gigabyte); the time budget is checked after every chunk,
// not only between files. With `root`, the opened descriptor must be inside it (a symlink swapped in
// after the walk cannot make grep read outside the workspace).
import { Buffer } from "node:buffer";
import { closeSync, constants, openSync, readSync } from "node:fs";
import { descriptorInside } from "../sdk/workspace-path.ts";

const CHUNK = 64 * 1024;
/** Characters of a line that are searched (and kept); the rest of a longer line is skipped. */
export const MAX_SCAN_LINE_CHARS = 64 * 1024;

export interface LineHit {
  line: number;
  text: string;
}

export interface ScanOptions {
  literal?: boolean;
  /** the real workspace the file must be in */
  root?: string;
  /** Date.now() after which the scan stops with "timeout" */
  deadline?: number;
  maxLineChars?: number;
  /** lines shown before and after each match, passed to onContext (grep -C) */
  context?: number;
  onContext?: (line: LineHit) => void;
}

export interface ScanResult {
  status: "done" | "stopped" | "binary" | "unreadable" | "timeout" | "outside";
  /** lines longer than maxLineChars, searched only in their first maxLineChars characters */
  longLines: number;
}

/**
 * True when `pattern` is a plain literal: then a chunk in which it does not match has no matching line
 * either (a literal cannot span a newline), so the chunk can be skipped without splitting it into lines.
 */
export function isLiteralPattern(pattern: string): boolean {
  return !/[\\^$.|?*+()[\]{}]/.test(pattern);
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

function openInside(path: string, root: string | undefined): number | "unreadable" | "outside" {
  let fd: number;
  try {
    // Non-blocking: a FIFO put in the workspace must not hang the search.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return "unreadable";
  }
  if (root !== undefined && !descriptorInside(fd, root)) {
    closeSync(fd);
    return "outside";
  }
  return fd;
}

/**
 * Calls `onHit` for each line matching `re` until it returns false. Status "binary" for binary files,
 * "stopped" when onHit asked to stop, "timeout" past the deadline, "unreadable" when the file cannot be
 * read, "outside" when it turned out not to be in the workspace, "done" otherwise.
 */
export function scanFile(
  path: string,
  re: RegExp,
  onHit: (hit: LineHit) => boolean,
  opts: ScanOptions = {},
): ScanResult {
  const maxLine = opts.maxLineChars ?? MAX_SCAN_LINE_CHARS;
  const result: ScanResult = { status: "done", longLines: 0 };
  const opened = openInside(path, opts.root);
  if (typeof opened !== "number") return { ...result, status: opened };
  const fd = opened;
  const finish = (status: ScanResult["status"]) => ({ ...result, status });
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let carry = ""; // the unfinished last line of the previous chunk
    let lineNo = 0;
    let first = true;
    /** inside the unsearched rest of an over-long line: bytes are dropped up to the next newline */
    let skipping = false;
    let decoder = new TextDecoder("utf-8");
    const around = opts.context ?? 0;
    const before: LineHit[] = [];
    let afterLeft = 0;
    const test = (raw: string): boolean => {
      lineNo++;
      const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      if (re.test(line)) {
        for (const b of before) opts.onContext?.(b);
        before.length = 0;
        afterLeft = around;
        return onHit({ line: lineNo, text: line });
      }
      if (afterLeft > 0) {
        afterLeft--;
        opts.onContext?.({ line: lineNo, text: line });
      } else if (around > 0) {
        before.push({ line: lineNo, text: line });
        if (before.length > around) before.shift();
      }
      return true;
    };
    for (;;) {
      if (opts.deadline !== undefined && Date.now() > opts.deadline) return finish("timeout");
      let n: number;
      try {
        n = readSync(fd, buf, 0, CHUNK, null);
      } catch {
        return finish("unreadable");
      }
      if (n === 0) break;
      let bytes = buf.subarray(0, n);
      if (first) {
        if (bytes.includes(0)) return finish("binary");
        first = false;
      }
      if (skipping) {
        const nl = bytes.indexOf(10);
        if (nl === -1) continue;
        skipping = false;
        decoder = new TextDecoder("utf-8");
        bytes = bytes.subarray(nl + 1);
      }
      const text = carry + decoder.decode(bytes, { stream: true });
      // A chunk without the literal has no matching line; with context its lines may still be shown.
      if (opts.literal && around === 0 && !re.test(text)) {
        const lastNl = text.lastIndexOf("\n");
        lineNo += countNewlines(text);
        carry = text.slice(lastNl + 1);
      } else {
        const lines = text.split("\n");
        carry = lines.pop() ?? "";
        for (const raw of lines) {
          if (raw.length > maxLine) result.longLines++;
          if (!test(raw.length > maxLine ? raw.slice(0, maxLine) : raw)) return finish("stopped");
        }
      }
      if (carry.length > maxLine) {
        // The line goes on past the bound: search what is kept now, then skip the rest of it.
        result.longLines++;
        if (!test(carry.slice(0, maxLine))) return finish("stopped");
        carry = "";
        skipping = true;
      }
    }
    const rest = skipping ? "" : carry + decoder.decode();
    if (rest !== "" && !test(rest)) return finish("stopped");
    return finish("done");
  } finally {
    closeSync(fd);
  }
}
