// Reads a line range of a text file of any size in fixed-size chunks: memory stays bounded by the output
// caps, and the total line count comes from counting newlines past the range.
import { readSync } from "node:fs";

const CHUNK = 64 * 1024;
const decoder = new TextDecoder();

export interface LineCaps {
  /** most lines to return */
  maxLines: number;
  /** most bytes of formatted output (line numbers included) */
  maxBytes: number;
  /** characters kept of one line; the rest is cut with a marker */
  maxLineChars: number;
}

export interface LineRange {
  /** formatted `N<TAB>text` lines */
  lines: string[];
  /** number of the first returned line (1-based) */
  first: number;
  /** number of lines in the whole file */
  total: number;
  /** output stopped at maxBytes before the requested lines were all shown */
  cappedByBytes: boolean;
  /** how many returned lines were cut at maxLineChars */
  longLines: number;
}

/** Lines `from`.. of the file open at `fd` (1-based), formatted with line numbers, within `caps`. */
export function readLineRange(fd: number, from: number, want: number, caps: LineCaps): LineRange {
  const keepBytes = caps.maxLineChars * 4;
  const limit = Math.min(want, caps.maxLines);
  const lines: string[] = [];
  let outBytes = 0;
  let cappedByBytes = false;
  let longLines = 0;
  let lineNo = 1; // the line the next byte belongs to
  let cur: Uint8Array[] = []; // kept bytes of the current line, only while collecting
  let curLen = 0;
  let curHasBytes = false;
  const collecting = () => !cappedByBytes && lineNo >= from && lines.length < limit;

  const finishLine = () => {
    if (!collecting()) return;
    let text = decoder.decode(Buffer.concat(cur));
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (curLen > keepBytes || text.length > caps.maxLineChars) {
      text = `${text.slice(0, caps.maxLineChars)} [… line cut at ${caps.maxLineChars} characters]`;
      longLines++;
    }
    const formatted = `${lineNo}\t${text}`;
    const size = Buffer.byteLength(formatted) + 1;
    if (outBytes + size > caps.maxBytes && lines.length > 0) {
      cappedByBytes = true;
      return;
    }
    lines.push(formatted);
    outBytes += size;
  };

  const buf = Buffer.allocUnsafe(CHUNK);
  for (;;) {
    const n = readSync(fd, buf, 0, CHUNK, null);
    if (n === 0) break;
    let start = 0;
    while (start < n) {
      if (!collecting()) {
        // Outside the requested lines only newlines matter: count them without touching the bytes.
        if (lineNo >= from) {
          // Past the range: a plain byte loop counts newlines faster than one search per line.
          let last = -1;
          for (let i = start; i < n; i++) {
            if (buf[i] === 10) {
              lineNo++;
              last = i;
            }
          }
          if (last !== -1) curHasBytes = last < n - 1;
          else if (n > start) curHasBytes = true;
          start = n;
          continue;
        }
        while (lineNo < from) {
          const nl = buf.indexOf(10, start);
          if (nl === -1 || nl >= n) {
            if (n > start) curHasBytes = true;
            start = n;
            break;
          }
          lineNo++;
          curHasBytes = false;
          start = nl + 1;
        }
        continue;
      }
      const nl = buf.indexOf(10, start);
      const end = nl === -1 || nl >= n ? n : nl;
      if (end > start) {
        curHasBytes = true;
        if (collecting() && curLen < keepBytes)
          cur.push(Buffer.from(buf.subarray(start, Math.min(end, start + keepBytes - curLen))));
        curLen += end - start;
      }
      if (end === n) break;
      finishLine();
      lineNo++;
      cur = [];
      curLen = 0;
      curHasBytes = false;
      start = end + 1;
    }
  }
  // A last line without a trailing newline still counts.
  let total = lineNo - 1;
  if (curHasBytes) {
    finishLine();
    total = lineNo;
  }
  return { lines, first: from, total, cappedByBytes, longLines };
}

/** The same range of a text held in memory (an editor's buffer). */
export function textLineRange(text: string, from: number, want: number, caps: LineCaps): LineRange {
  const all = text === "" ? [] : text.replace(/\n$/, "").split("\n");
  const limit = Math.min(want, caps.maxLines);
  const lines: string[] = [];
  let outBytes = 0;
  let cappedByBytes = false;
  let longLines = 0;
  for (let i = from - 1; i < all.length && lines.length < limit; i++) {
    let line = (all[i] as string).replace(/\r$/, "");
    if (line.length > caps.maxLineChars) {
      line = `${line.slice(0, caps.maxLineChars)} [… line cut at ${caps.maxLineChars} characters]`;
      longLines++;
    }
    const formatted = `${i + 1}\t${line}`;
    const size = Buffer.byteLength(formatted) + 1;
    if (outBytes + size > caps.maxBytes && lines.length > 0) {
      cappedByBytes = true;
      break;
    }
    lines.push(formatted);
    outBytes += size;
  }
  return { lines, first: from, total: all.length, cappedByBytes, longLines };
}
