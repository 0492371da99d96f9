// `edit`: replace a piece of text in a file, or several at once. old_text must match exactly once (or
// replace_all); a near miss (indentation, trailing spaces, typographic punctuation, line endings) still
// matches when every line of it matches and the match is unique. The write is atomic and keeps the
// file's mode and line endings; several edits apply together or not at all.
import { closeSync, fstatSync, statSync } from "node:fs";
import { z } from "zod";
import { formatBytes } from "../lib/truncate.ts";
import { changingTool } from "./changing-tool.ts";
import { writeConfined } from "./confined-fs.ts";
import { diffFiles, type FileDiff } from "./diff.ts";
import { applyEdits, listLines, tierNote } from "./edit/apply.ts";
import { splitFile } from "./edit/lines.ts";
import type { EditSpec } from "./edit/locate.ts";
import { snippet } from "./edit/snippet.ts";
import { SNIFF_BYTES, sniffFileKind } from "./file-kind.ts";
import { toolPath } from "./paths.ts";
import { openRegularFile, readAll } from "./read.ts";
import { ToolError } from "./tool-error.ts";
import type { CoreTool, ToolContext } from "./types.ts";

/** Larger files are not edited in memory; bash tools (sed, patch) suit them better. */
export const EDIT_MAX_BYTES = 32 * 1024 * 1024;
/** Edits one call may carry. */
export const EDIT_MAX_EDITS = 100;

const OneEdit = z.strictObject({
  old_text: z.string().describe("text to replace, copied from the file; must match exactly one place"),
  new_text: z.string().describe("the replacement text"),
  replace_all: z.boolean().optional().describe("replace every occurrence instead of requiring exactly one"),
});

const EditInput = z.strictObject({
  path: z.string().describe("file path, relative to the workspace"),
  old_text: z
    .string()
    .optional()
    .describe("text to replace, copied from the file with its whitespace; must match exactly one place"),
  new_text: z.string().optional().describe("the replacement text"),
  replace_all: z.boolean().optional().describe("replace every occurrence instead of requiring exactly one"),
  edits: z
    .array(OneEdit)
    .min(1)
    .max(EDIT_MAX_EDITS)
    .optional()
    .describe(
      "several changes to this file in one call, instead of old_text/new_text: each matched in the file as it is now; all are applied or none",
    ),
});

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export interface TextFile {
  text: string;
  mode: number;
  stat: { ino: number; size: number; mtimeMs: number };
}

/** A text file read whole for editing; refused when it is large, binary, not UTF-8 or stale. */
export function readTextFile(real: string, shown: string, ctx: ToolContext, confine?: string): TextFile {
  const fd = openRegularFile(real, shown, confine);
  try {
    const st = fstatSync(fd);
    const stale = ctx.files?.staleReason(real, shown, st);
    if (stale) throw new ToolError(stale);
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
    return { text, mode: st.mode & 0o7777, stat: st };
  } finally {
    closeSync(fd);
  }
}

/**
 * The editor's buffer of the file as the text to edit (its unsaved changes included), when it has one;
 * `real` is the confined path the caller checked.
 */
export async function bufferFile(
  real: string,
  shown: string,
  ctx: ToolContext,
): Promise<TextFile | undefined> {
  const text = await ctx.editor?.read(real);
  if (text === undefined) return undefined;
  if (Buffer.byteLength(text) > EDIT_MAX_BYTES)
    throw new ToolError(
      `${shown} is over the ${formatBytes(EDIT_MAX_BYTES)} edit limit; use bash (sed, patch) instead`,
    );
  const st = statSync(real, { throwIfNoEntry: false });
  if (st && !st.isFile()) throw new ToolError(`${shown} is not a regular file`);
  return {
    text,
    mode: st ? st.mode & 0o7777 : 0o644,
    stat: { ino: st?.ino ?? 0, size: st?.size ?? 0, mtimeMs: st?.mtimeMs ?? 0 },
  };
}

function editsOf(args: z.infer<typeof EditInput>): EditSpec[] {
  const single = args.old_text !== undefined || args.new_text !== undefined;
  if (args.edits && single) throw new ToolError("give either old_text and new_text, or edits, not both");
  if (args.edits) return args.edits;
  if (args.old_text === undefined || args.new_text === undefined)
    throw new ToolError(
      `missing ${args.old_text === undefined ? "old_text" : "new_text"}; give old_text and new_text (or edits, a list of them)`,
    );
  return [
    { old_text: args.old_text, new_text: args.new_text, ...(args.replace_all ? { replace_all: true } : {}) },
  ];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const countLines = (s: string) => (s === "" ? 0 : s.split("\n").length);

export const editTool: CoreTool<typeof EditInput> = changingTool({
  name: "edit",
  description:
    "Replace text in a file: old_text (copied from the file, whitespace included) must match exactly one place, unless replace_all is set. For several changes to one file, pass edits: [{old_text, new_text}, …] (all apply or none). Small differences in indentation, trailing spaces or quotes are tolerated when the match is unique. Read the file first; a file changed on disk since you read it is refused.",
  input: EditInput,
  async prepare(args, ctx) {
    const edits = editsOf(args);
    const { real, shown, confine } = toolPath(ctx, args.path);
    const file = (await bufferFile(real, shown, ctx)) ?? readTextFile(real, shown, ctx, confine);
    const applied = applyEdits(splitFile(file.text), shown, edits);
    const out = applied.text;
    const starts = applied.edits.flatMap((e) => e.lines).sort((a, b) => a - b);
    const n = starts.length;
    let diff: FileDiff | undefined;
    const change = () => {
      diff ??= diffFiles(file.text, out);
      return diff;
    };
    const what =
      edits.length === 1
        ? `replace ${plural(n, "occurrence")} at line${n === 1 ? "" : "s"} ${listLines(starts)} (${countLines(edits[0]?.old_text ?? "")} → ${countLines(edits[0]?.new_text ?? "")} lines)`
        : `${edits.length} edits at lines ${listLines(starts)}`;
    // Asked only once the edit is known to apply: the user approves a change that will happen as shown.
    const request = {
      tool: "edit" as const,
      summary: `${shown}: ${what}`,
      diff: () => ({ path: shown, diff: change() }),
    };
    const apply = async () => {
      writeConfined(real, out, file.mode, confine, shown);
      ctx.files?.record(real);
      await ctx.editor?.written(real, out);
      if (ctx.report) ctx.report({ kind: "diff", path: shown, diff: change() });
      const notes = [...new Set(applied.edits.map((e) => tierNote(e.tier)).filter((x) => x !== undefined))];
      const head =
        edits.length === 1
          ? `Edited ${shown}: replaced ${plural(n, "occurrence")} (line${n === 1 ? "" : "s"} ${listLines(starts)})`
          : `Edited ${shown}: applied ${edits.length} edits (lines ${listLines(starts)})`;
      const note = notes.length ? ` [${notes.join("; ")}]` : "";
      return { content: `${head}${note}\n${snippet(out, applied.changed)}`, is_error: false };
    };
    return { change: { request }, apply };
  },
});
