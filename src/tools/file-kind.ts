// What a file is, judged from its first bytes (never its name): an image the model can see, other binary
// data no text tool should show, or text.

export const SNIFF_BYTES = 8192;

export type FileKind =
  | { kind: "image"; mediaType: "image/png" | "image/jpeg" | "image/gif" | "image/webp" }
  | { kind: "binary"; what: string }
  | { kind: "text" };

function startsWith(buf: Uint8Array, sig: number[], at = 0): boolean {
  if (buf.length < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (buf[at + i] !== sig[i]) return false;
  return true;
}

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

const BINARY_SIGNATURES: [number[], string][] = [
  [ascii("%PDF-"), "a PDF document"],
  [[0x50, 0x4b, 0x03, 0x04], "a zip archive"],
  [[0x1f, 0x8b], "gzip-compressed data"],
  [[0x7f, 0x45, 0x4c, 0x46], "an ELF executable"],
  [ascii("SQLite format 3"), "an SQLite database"],
];

/** Classify a file by its first bytes (pass up to SNIFF_BYTES). */
export function sniffFileKind(head: Uint8Array): FileKind {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { kind: "image", mediaType: "image/png" };
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { kind: "image", mediaType: "image/jpeg" };
  if (startsWith(head, ascii("GIF87a")) || startsWith(head, ascii("GIF89a")))
    return { kind: "image", mediaType: "image/gif" };
  if (startsWith(head, ascii("RIFF")) && startsWith(head, ascii("WEBP"), 8))
    return { kind: "image", mediaType: "image/webp" };
  for (const [sig, what] of BINARY_SIGNATURES) if (startsWith(head, sig)) return { kind: "binary", what };
  // Text has no NUL bytes and few control characters; UTF-16 and most binary formats have plenty.
  let control = 0;
  for (const b of head) {
    if (b === 0) return { kind: "binary", what: "binary data (contains NUL bytes)" };
    if ((b < 0x20 && b !== 9 && b !== 10 && b !== 12 && b !== 13 && b !== 27 && b !== 8) || b === 0x7f)
      control++;
  }
  if (head.length > 0 && control / head.length > 0.1) return { kind: "binary", what: "binary data" };
  return { kind: "text" };
}
