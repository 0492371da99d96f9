// Reading one file for grep: in fixed-size chunks, line by line, stopping as soon as the caller has
// enough matches, so a huge file costs only what is read of it. A NUL byte in the first chunk marks the
// file as binary and it is skipped, like other search tools do.
import { Buffer } from "node:buffer";
import { closeSync, openSync, readSync } from "node:fs";

const CHUNK = 64 * 1024;

export interface LineHit {
  line: number;
  text: string;
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

/**
 * Calls `onHit` for each line matching `re` until it returns false. Returns "binary" for binary
 * files, "stopped" when onHit asked to stop, "done" otherwise; "unreadable" when the file cannot be read.
 */
export function scanFile(
  path: string,
  re: RegExp,
  onHit: (hit: LineHit) => boolean,
  literal = false,
): "done" | "stopped" | "binary" | "unreadable" {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return "unreadable";
  }
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let carry = ""; // the unfinished last line of the previous chunk
    let lineNo = 0;
    let first = true;
    const decoder = new TextDecoder("utf-8");
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buf, 0, CHUNK, null);
      } catch {
        return "unreadable";
      }
      if (n === 0) break;
      const bytes = buf.subarray(0, n);
      if (first) {
        if (bytes.includes(0)) return "binary";
        first = false;
      }
      const text = carry + decoder.decode(bytes, { stream: true });
      if (literal && !re.test(text)) {
        const lastNl = text.lastIndexOf("\n");
        lineNo += countNewlines(text);
        carry = text.slice(lastNl + 1);
        continue;
      }
      const lines = text.split("\n");
      carry = lines.pop() ?? "";
      for (const raw of lines) {
        lineNo++;
        const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
        if (re.test(line) && !onHit({ line: lineNo, text: line })) return "stopped";
      }
    }
    const rest = carry + decoder.decode();
    if (rest !== "") {
      lineNo++;
      const line = rest.endsWith("\r") ? rest.slice(0, -1) : rest;
      if (re.test(line) && !onHit({ line: lineNo, text: line })) return "stopped";
    }
    return "done";
  } finally {
    closeSync(fd);
  }
}
