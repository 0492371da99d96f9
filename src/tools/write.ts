// `write`: create or overwrite a whole file, creating parent directories. Atomic: a crash leaves the old
// file or the new one, never half of it. An existing file keeps its permissions.
import { closeSync, fstatSync, statSync } from "node:fs";
import { z } from "zod";
import { formatBytes } from "../lib/truncate.ts";
import { changingTool } from "./changing-tool.ts";
import { writeConfined } from "./confined-fs.ts";
import { diffFiles } from "./diff.ts";
import { toolPath } from "./paths.ts";
import { openRegularFile, readAll } from "./read.ts";
import { ToolError } from "./tool-error.ts";
import type { CoreTool } from "./types.ts";

const WriteInput = z.strictObject({
  path: z.string().describe("file path, relative to the workspace"),
  content: z.string().describe("the complete new content of the file"),
});

/** The permission bits of an existing regular file, undefined when there is none yet. */
export function existingFileMode(real: string, shown: string): number | undefined {
  try {
    const st = statSync(real);
    if (st.isDirectory()) throw new ToolError(`${shown} is a directory, not a file`);
    if (!st.isFile()) throw new ToolError(`${shown} is not a regular file`);
    return st.mode & 0o7777;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ENOTDIR")
      throw new ToolError(`cannot create ${shown}: a parent of it is a file, not a directory`);
    throw err;
  }
}

/** Bound on the old content read just to show what a write changed. */
const DIFF_MAX_BYTES = 1024 * 1024;

/** The text a write replaces, for its diff (read confined, like every file tool read); undefined when it
 * is large, binary or unreadable. */
function previousText(real: string, shown: string, confine: string | undefined): string | undefined {
  let fd: number | undefined;
  try {
    fd = openRegularFile(real, shown, confine);
    const size = fstatSync(fd).size;
    if (size > DIFF_MAX_BYTES) return undefined;
    const buf = readAll(fd, size);
    return buf.includes(0) ? undefined : buf.toString("utf8");
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function countLines(s: string): number {
  if (s === "") return 0;
  let n = 0;
  for (let i = s.indexOf("\n"); i !== -1; i = s.indexOf("\n", i + 1)) n++;
  return s.endsWith("\n") ? n : n + 1;
}

export const writeTool: CoreTool<typeof WriteInput> = changingTool({
  name: "write",
  description:
    "Create a file or overwrite it completely with the given content (parent directories are created). Prefer edit for changing part of an existing file.",
  input: WriteInput,
  async prepare(args, ctx) {
    const { real, shown, confine } = toolPath(ctx, args.path);
    const mode = existingFileMode(real, shown);
    // The old text, read once and only when a diff is wanted (by the approval question or the display).
    let prior: { text: string | undefined } | undefined;
    const readBefore = () => {
      prior ??= { text: mode !== undefined ? previousText(real, shown, confine) : "" };
      return prior.text;
    };
    const lineCount = countLines(args.content);
    const request = {
      tool: "write" as const,
      summary: `${mode === undefined ? "create" : "overwrite"} ${shown} (${lineCount} line${lineCount === 1 ? "" : "s"})`,
      diff: () => {
        const b = readBefore();
        return b === undefined ? undefined : { path: shown, diff: diffFiles(b, args.content) };
      },
    };
    const apply = async () => {
      const before = ctx.report ? readBefore() : undefined;
      try {
        writeConfined(real, args.content, mode ?? 0o644, confine, shown);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === "EEXIST" || code === "ENOTDIR")
          throw new ToolError(`cannot create ${shown}: a parent of it is a file, not a directory`);
        throw err;
      }
      ctx.files?.record(real);
      await ctx.editor?.written(real, args.content);
      if (ctx.report && before !== undefined)
        ctx.report({ kind: "diff", path: shown, diff: diffFiles(before, args.content) });
      const bytes = Buffer.byteLength(args.content);
      const lines = countLines(args.content);
      return {
        content: `${mode === undefined ? "Created" : "Overwrote"} ${shown} (${formatBytes(bytes)}, ${lines} line${lines === 1 ? "" : "s"})`,
        is_error: false,
      };
    };
    return { change: { request }, apply };
  },
});
