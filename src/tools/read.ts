// `read`: a text file with line numbers (a line range of it, within output caps), or an image the model
// can look at. Binary files are refused with a clear reason.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { z } from "zod";
import { checkImage } from "../lib/image-info.ts";
import { formatBytes } from "../lib/truncate.ts";
import { checkDescriptor } from "./confined-fs.ts";
import { SNIFF_BYTES, sniffFileKind } from "./file-kind.ts";
import { toolPath } from "./paths.ts";
import { readLineRange, textLineRange } from "./read-lines.ts";
import { ToolError } from "./tool-error.ts";
import type { CoreTool, ToolResult } from "./types.ts";

export const READ_MAX_LINES = 2000;
export const READ_MAX_BYTES = 256 * 1024;
export const READ_MAX_LINE_CHARS = 2000;
/** Providers refuse larger images; a bigger one would poison every later request of the session. */
export const READ_MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const ReadInput = z.strictObject({
  path: z.string().describe("file path, relative to the workspace"),
  offset: z.number().int().min(1).optional().describe("first line to show, 1-based (default 1)"),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`how many lines to show (default and maximum ${READ_MAX_LINES})`),
});

/**
 * Open a regular file for reading. Opened non-blocking, then checked with fstat: a FIFO or device would
 * otherwise block or stream forever. With `root` (the real workspace), the opened descriptor must be
 * inside it: a symlink swapped in between resolving and opening cannot redirect the read.
 */
export function openRegularFile(real: string, shown: string, root?: string): number {
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new ToolError(`file not found: ${shown}`);
    if (code === "EACCES" || code === "EPERM") throw new ToolError(`permission denied: ${shown}`);
    throw err;
  }
  checkDescriptor(fd, root, shown);
  const st = fstatSync(fd);
  if (st.isFile()) return fd;
  closeSync(fd);
  if (st.isDirectory()) throw new ToolError(`${shown} is a directory; use bash (ls) to list it`);
  throw new ToolError(`${shown} is not a regular file`);
}

/** The first `size` bytes of the open file (fewer if it shrank meanwhile). */
export function readAll(fd: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let off = 0;
  while (off < size) {
    const n = readSync(fd, buf, off, size - off, off);
    if (n === 0) break;
    off += n;
  }
  return buf.subarray(0, off);
}

function readImage(fd: number, size: number, shown: string, mediaType: string): ToolResult {
  if (size > READ_MAX_IMAGE_BYTES) {
    throw new ToolError(
      `${shown} is an image of ${formatBytes(size)}, over the ${formatBytes(READ_MAX_IMAGE_BYTES)} limit; make a smaller copy first (e.g. with an image tool through bash) and read that`,
    );
  }
  const bytes = readAll(fd, size);
  // A provider refuses a damaged image, and then every later request that still carries it.
  const checked = checkImage(bytes);
  if (typeof checked === "string")
    throw new ToolError(`${shown} is ${checked}; it was not attached (it cannot be shown to the model)`);
  const data = bytes.toString("base64");
  return {
    content: [
      { type: "text", text: `${shown}: ${mediaType} image, ${formatBytes(size)}` },
      { type: "image", media_type: mediaType, data },
    ],
    is_error: false,
  };
}

const LINE_CAPS = { maxLines: READ_MAX_LINES, maxBytes: READ_MAX_BYTES, maxLineChars: READ_MAX_LINE_CHARS };

function readText(fd: number | string, shown: string, offset: number, limit: number): ToolResult {
  // A string is an editor's buffer of the file (its unsaved text), read like the file itself.
  const r =
    typeof fd === "string"
      ? textLineRange(fd, offset, limit, LINE_CAPS)
      : readLineRange(fd, offset, limit, LINE_CAPS);
  if (r.total === 0) return { content: `${shown} is empty (0 lines)`, is_error: false };
  if (offset > r.total) {
    throw new ToolError(`offset ${offset} is past the end of ${shown}, which has ${r.total} lines`);
  }
  const last = r.first + r.lines.length - 1;
  const notes: string[] = [];
  if (last < r.total) {
    const why = r.cappedByBytes
      ? `output capped at ${formatBytes(READ_MAX_BYTES)}; `
      : limit > READ_MAX_LINES && r.lines.length === READ_MAX_LINES
        ? `at most ${READ_MAX_LINES} lines per call; `
        : "";
    notes.push(
      `[${why}showing lines ${r.first}-${last} of ${r.total}; call read with offset=${last + 1} to see more]`,
    );
  } else if (r.first > 1) {
    notes.push(`[showing lines ${r.first}-${last} of ${r.total}]`);
  }
  if (r.longLines > 0) {
    notes.push(
      `[${r.longLines} long line${r.longLines === 1 ? " was" : "s were"} cut at ${READ_MAX_LINE_CHARS} characters; use bash (e.g. cut -c) to see the rest]`,
    );
  }
  const body = r.lines.join("\n");
  return { content: notes.length ? `${body}\n${notes.join("\n")}` : body, is_error: false };
}

export const readTool: CoreTool<typeof ReadInput> = {
  name: "read",
  description: `Read a file in the workspace. Text comes with line numbers (N<TAB>text), at most ${READ_MAX_LINES} lines or ${formatBytes(READ_MAX_BYTES)} per call; use offset/limit for other ranges. PNG, JPEG, GIF and WebP images are returned as images. Binary files are refused.`,
  input: ReadInput,
  async run(args, ctx) {
    // A command's saved output (its path was given in the bash result) is read where it is.
    const saved = ctx.outputs?.resolve(args.path);
    const { real, shown, confine } = saved
      ? { real: saved, shown: saved, confine: undefined }
      : toolPath(ctx, args.path);
    const buffer = saved ? undefined : await ctx.editor?.read(real);
    if (buffer !== undefined && !buffer.includes("\u0000"))
      return readText(buffer, shown, args.offset ?? 1, args.limit ?? READ_MAX_LINES);
    const fd = openRegularFile(real, shown, confine);
    try {
      const st = fstatSync(fd);
      const head = Buffer.alloc(Math.min(SNIFF_BYTES, st.size));
      readSync(fd, head, 0, head.length, 0);
      const kind = sniffFileKind(head);
      if (kind.kind !== "binary") ctx.files?.record(real, st);
      if (kind.kind === "image") return readImage(fd, st.size, shown, kind.mediaType);
      if (kind.kind === "binary") {
        throw new ToolError(
          `${shown} is ${kind.what} (${formatBytes(st.size)}), not text; read cannot show it`,
        );
      }
      const result = readText(fd, shown, args.offset ?? 1, args.limit ?? READ_MAX_LINES);
      const nested = saved ? [] : (ctx.instructions?.forFile(real) ?? []);
      return nested.length && typeof result.content === "string"
        ? { ...result, content: `${result.content}\n\n${nested.join("\n\n")}` }
        : result;
    } finally {
      closeSync(fd);
    }
  },
};
