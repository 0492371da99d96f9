// `edit`: replace an exact piece of text in a file. old_text must occur exactly once (or replace_all), so
// an edit never lands somewhere the model did not mean. The write is atomic and keeps the file's mode.
import { closeSync, fstatSync } from "node:fs";
import { z } from "zod";
import { formatBytes } from "../lib/truncate.ts";
import { changingTool } from "./changing-tool.ts";
import { writeConfined } from "./confined-fs.ts";
import { diffFiles, type FileDiff } from "./diff.ts";
import { notFoundHint } from "./edit-hint.ts";
import { SNIFF_BYTES, sniffFileKind } from "./file-kind.ts";
import { toolPath } from "./paths.ts";
import { openRegularFile, readAll } from "./read.ts";
import { ToolError } from "./tool-error.ts";
import type { CoreTool } from "./types.ts";

/** Larger files are not edited in memory; bash tools (sed, patch) suit them better. */
export const EDIT_MAX_BYTES = 32 * 1024 * 1024;

const EditInput = z.strictObject({
  path: z.string().describe("file path, relative to the workspace"),
  old_text: z.string().describe("exact text to replace, whitespace included; must occur exactly once"),
  new_text: z.string().describe("the replacement text"),
  replace_all: z.boolean().optional().describe("replace every occurrence instead of requiring exactly one"),
});

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function readTextFile(real: string, shown: string, confine?: string): { text: string; mode: number } {
  const fd = openRegularFile(real, shown, confine);
  try {
    const st = fstatSync(fd);
    if (st.size > EDIT_MAX_BYTES) {
      throw new ToolError(
        `${shown} is ${formatBytes(st.size)}, over the ${formatBytes(EDIT_MAX_BYTES)} edit limit; use bash (sed, patch) instead`,
      );
    }
    const buf = readAll(fd, st.size);
    const kind = sniffFileKind(buf.subarray(0, SNIFF_BYTES));
    if (kind.kind !== "text")
      throw new ToolError(`${shown} is not a text file; edit only changes text files`);
    let text: string;
    try {
      text = strictUtf8.decode(buf);
    } catch {
      // Decoding with replacement characters and writing back would silently corrupt the file.
      throw new ToolError(`${shown} is not valid UTF-8; edit would corrupt it, so use bash (sed) instead`);
    }
    return { text, mode: st.mode & 0o7777 };
  } finally {
    closeSync(fd);
  }
}

/** Start offsets of the non-overlapping occurrences of `needle` in `text`. */
function occurrences(text: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

/** 1-based line numbers of ascending offsets, in one pass. */
function lineNumbers(text: string, offsets: number[]): number[] {
  const out: number[] = [];
  let line = 1;
  let pos = 0;
  for (const off of offsets) {
    for (let i = text.indexOf("\n", pos); i !== -1 && i < off; i = text.indexOf("\n", i + 1)) {
      line++;
      pos = i + 1;
    }
    out.push(line);
  }
  return out;
}

function listLines(lines: number[]): string {
  const shown = lines.slice(0, 10).join(", ");
  return lines.length > 10 ? `${shown}, …` : shown;
}

function countLines(s: string): number {
  return s === "" ? 0 : s.split("\n").length;
}

export const editTool: CoreTool<typeof EditInput> = changingTool({
  name: "edit",
  description:
    "Replace exact text in a file. old_text must match the file exactly (whitespace included) and occur exactly once, unless replace_all is set. Read the file first.",
  input: EditInput,
  async prepare(args, ctx) {
    if (args.old_text === "") throw new ToolError("old_text is empty; to write a whole file use write");
    if (args.old_text === args.new_text)
      throw new ToolError("old_text and new_text are the same; nothing to change");
    const { real, shown, confine } = toolPath(ctx, args.path);
    const { text, mode } = readTextFile(real, shown, confine);
    let oldText = args.old_text;
    let newText = args.new_text;
    let at = occurrences(text, oldText);
    // Models write "\n"; a CRLF file should still match, and keep its line endings.
    if (at.length === 0 && text.includes("\r\n") && oldText.includes("\n") && !oldText.includes("\r\n")) {
      oldText = oldText.replace(/\n/g, "\r\n");
      newText = newText.replace(/\r?\n/g, "\r\n");
      at = occurrences(text, oldText);
    }
    if (at.length === 0) {
      throw new ToolError(`old_text was not found in ${shown}: ${notFoundHint(text, args.old_text)}`);
    }
    const lines = lineNumbers(text, at);
    if (at.length > 1 && !args.replace_all) {
      throw new ToolError(
        `old_text occurs ${at.length} times in ${shown} (lines ${listLines(lines)}); include more surrounding lines to make it unique, or set replace_all to replace every occurrence`,
      );
    }
    let out = "";
    let prev = 0;
    for (const i of at) {
      out += text.slice(prev, i) + newText;
      prev = i + oldText.length;
    }
    out += text.slice(prev);
    const n = at.length;
    // Asked only once the edit is known to apply: the user approves a change that will happen as shown.
    let diff: FileDiff | undefined;
    const change = () => {
      diff ??= diffFiles(text, out);
      return diff;
    };
    const request = {
      tool: "edit" as const,
      summary: `${shown}: replace ${n} occurrence${n === 1 ? "" : "s"} at line${n === 1 ? "" : "s"} ${listLines(lines)} (${countLines(args.old_text)} → ${countLines(args.new_text)} lines)`,
      diff: () => ({ path: shown, diff: change() }),
    };
    const apply = async () => {
      writeConfined(real, out, mode, confine, shown);
      if (ctx.report) ctx.report({ kind: "diff", path: shown, diff: change() });
      return {
        content: `Edited ${shown}: replaced ${n} occurrence${n === 1 ? "" : "s"} (line${n === 1 ? "" : "s"} ${listLines(lines)})`,
        is_error: false,
      };
    };
    return { change: { request }, apply };
  },
});
