// The patch format of apply_patch, as codex defines it (written from its grammar):
//
//   *** Begin Patch
//   *** Add File: PATH          then the file's lines, each starting with "+"
//   *** Delete File: PATH
//   *** Update File: PATH       optionally "*** Move to: NEWPATH", then hunks:
//   @@ [a line of the file to search from, e.g. a function's first line]
//    context line   -removed line   +added line   (and "*** End of File" when the hunk ends the file)
//   *** End Patch
//
// Forgiving where models slip and nothing is ambiguous: CRLF, a heredoc or code fence around the patch,
// an empty line inside a hunk read as an empty context line, a first hunk without its "@@".

import { ToolError } from "../tool-error.ts";

export interface Chunk {
  /** the text after "@@ ": a line the hunk comes after */
  anchor?: string;
  /** context and removed lines, in order: what the file has */
  old: string[];
  /** context and added lines, in order: what it will have */
  new: string[];
  /** the hunk ends at the end of the file */
  atEnd: boolean;
}

export type FileOp =
  | { kind: "add"; path: string; lines: string[] }
  | { kind: "delete"; path: string }
  | { kind: "update"; path: string; moveTo?: string; chunks: Chunk[] };

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const EOF_MARK = "*** End of File";

/** The patch text without what models put around it (a heredoc, a code fence). */
function unwrap(input: string): string[] {
  let lines = input.replace(/\r\n/g, "\n").split("\n");
  const trimmed = () => {
    while (lines.length && (lines[0] as string).trim() === "") lines.shift();
    while (lines.length && (lines.at(-1) as string).trim() === "") lines.pop();
  };
  trimmed();
  const first = (lines[0] ?? "").trim();
  if (/^(?:apply_patch\s*)?<<-?\s*['"]?(\w+)['"]?$/.test(first)) {
    const tag = /(\w+)['"]?$/.exec(first)?.[1];
    lines.shift();
    if ((lines.at(-1) ?? "").trim() === tag) lines.pop();
  } else if (/^```/.test(first) && (lines.at(-1) ?? "").trim() === "```") {
    lines = lines.slice(1, -1);
  }
  trimmed();
  return lines;
}

function pathAfter(line: string, prefix: string, n: number): string {
  const p = line.slice(prefix.length).trim();
  if (p === "") throw new ToolError(`patch line ${n}: "${prefix.trim()}" without a path`);
  return p;
}

/** Parse a whole patch. Throws a ToolError naming the line and what was expected. */
export function parsePatch(input: string): FileOp[] {
  const lines = unwrap(input);
  if ((lines[0] ?? "").trim() !== BEGIN)
    throw new ToolError(
      `the patch must start with "${BEGIN}" (it starts with "${(lines[0] ?? "").slice(0, 60)}")`,
    );
  if ((lines.at(-1) ?? "").trim() !== END)
    throw new ToolError(
      `the patch must end with "${END}"; if it was cut off, send it again in smaller parts (one file per call)`,
    );
  const ops: FileOp[] = [];
  let i = 1;
  const last = lines.length - 1;
  while (i < last) {
    const line = lines[i] as string;
    const n = i + 1;
    if (line.startsWith(ADD)) {
      const path = pathAfter(line, ADD, n);
      const body: string[] = [];
      for (i++; i < last && !(lines[i] as string).startsWith("*** "); i++) {
        const l = lines[i] as string;
        if (!l.startsWith("+"))
          throw new ToolError(
            `patch line ${i + 1}: every line of an added file starts with "+" (in ${path})`,
          );
        body.push(l.slice(1));
      }
      ops.push({ kind: "add", path, lines: body });
    } else if (line.startsWith(DELETE)) {
      ops.push({ kind: "delete", path: pathAfter(line, DELETE, n) });
      i++;
    } else if (line.startsWith(UPDATE)) {
      const path = pathAfter(line, UPDATE, n);
      i++;
      let moveTo: string | undefined;
      if ((lines[i] ?? "").startsWith(MOVE)) {
        moveTo = pathAfter(lines[i] as string, MOVE, i + 1);
        i++;
      }
      const parsed = parseChunks(lines, i, last, path);
      i = parsed.next;
      if (parsed.chunks.length === 0 && moveTo === undefined)
        throw new ToolError(
          `patch line ${n}: "${UPDATE}${path}" has no hunks; give @@ hunks or leave the file out`,
        );
      ops.push({ kind: "update", path, ...(moveTo !== undefined ? { moveTo } : {}), chunks: parsed.chunks });
    } else if (line.trim() === "") {
      i++;
    } else {
      throw new ToolError(
        `patch line ${n}: expected "${ADD}", "${DELETE}" or "${UPDATE}" followed by a path, got "${line.slice(0, 60)}"`,
      );
    }
  }
  if (ops.length === 0) throw new ToolError("the patch changes no file");
  return ops;
}

function parseChunks(
  lines: string[],
  start: number,
  last: number,
  path: string,
): { chunks: Chunk[]; next: number } {
  const chunks: Chunk[] = [];
  let cur: Chunk | undefined;
  let i = start;
  for (; i < last; i++) {
    const l = lines[i] as string;
    if (l.startsWith("*** ") && l.trim() !== EOF_MARK) break;
    if (l.trim() === EOF_MARK) {
      if (!cur) throw new ToolError(`patch line ${i + 1}: "${EOF_MARK}" outside a hunk (in ${path})`);
      cur.atEnd = true;
      continue;
    }
    if (l.startsWith("@@")) {
      const anchor = l.slice(2).trim();
      cur = { old: [], new: [], atEnd: false, ...(anchor !== "" ? { anchor } : {}) };
      chunks.push(cur);
      continue;
    }
    if (!cur) {
      // The first hunk may leave out its "@@" line.
      cur = { old: [], new: [], atEnd: false };
      chunks.push(cur);
    }
    if (cur.atEnd)
      throw new ToolError(
        `patch line ${i + 1}: lines after "${EOF_MARK}" (in ${path}); start a new hunk with @@`,
      );
    const mark = l.charAt(0);
    const text = l.slice(1);
    if (l === "") {
      cur.old.push("");
      cur.new.push("");
    } else if (mark === " ") {
      cur.old.push(text);
      cur.new.push(text);
    } else if (mark === "-") cur.old.push(text);
    else if (mark === "+") cur.new.push(text);
    else
      throw new ToolError(
        `patch line ${i + 1}: a hunk line starts with " " (context), "-" (removed) or "+" (added), got "${l.slice(0, 60)}" (in ${path})`,
      );
  }
  const empty = chunks.findIndex((c) => c.old.length === 0 && c.new.length === 0);
  if (empty !== -1) throw new ToolError(`hunk ${empty + 1} of ${path} is empty`);
  return { chunks, next: i };
}
