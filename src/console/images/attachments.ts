// Images attached to the message being written: read from a file (a pasted or typed path, `@shot.png`) or
// the clipboard, checked (one of PNG, JPEG, GIF, WebP; not damaged; within the size limits providers
// accept) and numbered. The input shows each as its label, `[image 1: png 800×600 120 KB]`; at submit the
// labels in the text say which images go with the message. One console runs per process, so its
// attachments are kept here for the input (paste) and the session loop (submit).
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import type { ImagePart } from "../../contract/history.ts";
import { checkImage } from "../../lib/image-info.ts";
import { RefusedFile, readRegularBytes } from "../../lib/regular-file.ts";

/** Providers refuse larger images (Anthropic's limit is 5 MB, others' larger). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** …and images wider or taller than this. */
export const MAX_IMAGE_SIDE = 8000;

export interface Attached {
  n: number;
  label: string;
  part: ImagePart;
}

export const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp)$/i;
export const LABEL = /\[image (\d+): [a-z]+ \d+×\d+ [\d.]+ [KM]B\]/g;

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

function tooLarge(what: string, bytes: number): string {
  return `${what} is ${sizeText(bytes)}; images up to ${sizeText(MAX_IMAGE_BYTES)} can be sent (make a smaller copy)`;
}

export class ImageAttachments {
  private readonly byNumber = new Map<number, Attached>();
  private next = 1;

  /** Check and number an image; a string says why it cannot be attached (one line, with the fix). */
  add(bytes: Uint8Array, what: string): Attached | string {
    if (bytes.length > MAX_IMAGE_BYTES) return tooLarge(what, bytes.length);
    const info = checkImage(bytes);
    if (typeof info === "string") return `${what} is ${info}`;
    if (info.width > MAX_IMAGE_SIDE || info.height > MAX_IMAGE_SIDE)
      return `${what} is ${info.width}×${info.height} pixels; images up to ${MAX_IMAGE_SIDE} pixels a side can be sent (make a smaller copy)`;
    const n = this.next++;
    const label = `[image ${n}: ${info.format} ${info.width}×${info.height} ${sizeText(bytes.length)}]`;
    const part: ImagePart = {
      type: "image",
      media_type: info.mediaType,
      data: Buffer.from(bytes).toString("base64"),
    };
    const a = { n, label, part };
    this.byNumber.set(n, a);
    return a;
  }

  /** The attachments whose labels `text` holds, in order of appearance, each once. */
  inText(text: string): Attached[] {
    const out: Attached[] = [];
    for (const m of text.matchAll(LABEL)) {
      const a = this.byNumber.get(Number(m[1]));
      if (a && a.label === m[0] && !out.includes(a)) out.push(a);
    }
    return out;
  }
}

export const consoleImages = new ImageAttachments();

/** A path as pasted or typed: quotes around it, a file:// URL, backslash-escaped spaces, ~ for home. */
export function pastedPath(text: string, workspace: string): string | undefined {
  let p = text.trim();
  if (p === "" || p.includes("\n")) return undefined;
  if ((p.startsWith("'") && p.endsWith("'")) || (p.startsWith('"') && p.endsWith('"'))) p = p.slice(1, -1);
  if (p.startsWith("file://")) {
    try {
      p = decodeURIComponent(new URL(p).pathname);
    } catch {
      return undefined;
    }
  }
  p = p.replace(/\\([ '"()&])/g, "$1");
  if (p === "~" || p.startsWith("~/")) p = homedir() + p.slice(1);
  return isAbsolute(p) ? p : resolve(workspace, p);
}

/**
 * A regular file's bytes, or why it cannot be attached (missing, not a file, over the size limit). Read
 * the one safe way (non-blocking open, regular files only, capped): a pasted FIFO must not freeze the
 * console.
 */
export function readImageFile(path: string, what = path): Uint8Array | string {
  try {
    return readRegularBytes(path, MAX_IMAGE_BYTES, "an image") ?? `${what}: no such file`;
  } catch (err) {
    if (!(err instanceof RefusedFile)) return `${what}: cannot be read`;
    if (err.because === "too-large") return tooLarge(what, err.detail.size ?? MAX_IMAGE_BYTES + 1);
    if (err.because === "unreadable") return `${what}: cannot be read`;
    return `${what} is ${err.detail.kind ?? "not a regular file"}, not a file`;
  }
}
