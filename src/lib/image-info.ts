// What an image is, from its bytes alone: PNG, JPEG, GIF or WebP, and its size in pixels read from the
// format's own header. Anything else — or a header cut short or inconsistent — is no image: the caller
// says so in one line instead of sending the model bytes it cannot decode.

export type ImageFormat = "png" | "jpeg" | "gif" | "webp";

export interface ImageInfo {
  format: ImageFormat;
  mediaType: `image/${ImageFormat}`;
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, i: number) => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
const u16le = (b: Uint8Array, i: number) => (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8);
const u24le = (b: Uint8Array, i: number) => u16le(b, i) | ((b[i + 2] ?? 0) << 16);
const u32be = (b: Uint8Array, i: number) =>
  ((b[i] ?? 0) * 2 ** 24) | (u16be(b, i + 1) << 8) | (b[i + 3] ?? 0);
const text = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));

function png(b: Uint8Array): [number, number] | undefined {
  if (b.length < 24 || text(b, 12, 4) !== "IHDR") return undefined;
  return [u32be(b, 16) >>> 0, u32be(b, 20) >>> 0];
}

function gif(b: Uint8Array): [number, number] | undefined {
  return b.length < 10 ? undefined : [u16le(b, 6), u16le(b, 8)];
}

function jpeg(b: Uint8Array): [number, number] | undefined {
  // Walk the segments to the first start-of-frame (SOF0..SOF15 except DHT, JPG and DAC).
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1] as number;
    if (marker === 0xff) {
      i++;
      continue;
    }
    const len = u16be(b, i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return [u16be(b, i + 7), u16be(b, i + 5)];
    if (len < 2) return undefined;
    i += 2 + len;
  }
  return undefined;
}

function webp(b: Uint8Array): [number, number] | undefined {
  const chunk = text(b, 12, 4);
  if (chunk === "VP8X" && b.length >= 30) return [u24le(b, 24) + 1, u24le(b, 27) + 1];
  if (chunk === "VP8L" && b.length >= 25 && b[20] === 0x2f) {
    const bits = (b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24);
    return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
  }
  if (chunk === "VP8 " && b.length >= 30 && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a)
    return [u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff];
  return undefined;
}

function formatOf(b: Uint8Array): ImageFormat | undefined {
  if (b.length >= 8 && b[0] === 0x89 && text(b, 1, 3) === "PNG" && b[4] === 0x0d && b[5] === 0x0a)
    return "png";
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (text(b, 0, 6) === "GIF87a" || text(b, 0, 6) === "GIF89a") return "gif";
  if (text(b, 0, 4) === "RIFF" && text(b, 8, 4) === "WEBP") return "webp";
  return undefined;
}

/** The image in `bytes`, or undefined when it is not one of the four formats or its header is damaged. */
export function imageInfo(bytes: Uint8Array): ImageInfo | undefined {
  const format = formatOf(bytes);
  if (!format) return undefined;
  const size = { png, jpeg, gif, webp }[format](bytes);
  if (!size || size[0] < 1 || size[1] < 1) return undefined;
  return { format, mediaType: `image/${format}`, width: size[0], height: size[1] };
}

/** Where each format's file must end: a file cut short (the usual damage) misses it. */
function endsWhole(format: ImageFormat, b: Uint8Array): boolean {
  const n = b.length;
  switch (format) {
    // the IEND chunk: length 0, type, CRC
    case "png":
      return n >= 12 && text(b, n - 8, 4) === "IEND";
    // the EOI marker; some writers pad after it, so it is looked for near the end
    case "jpeg": {
      for (let i = n - 2; i >= Math.max(2, n - 4096); i--)
        if (b[i] === 0xff && b[i + 1] === 0xd9) return true;
      return false;
    }
    // the trailer byte
    case "gif":
      return b[n - 1] === 0x3b;
    // RIFF says how long the file is
    case "webp":
      return n >= 12 && u16le(b, 4) + u16le(b, 6) * 65536 + 8 <= n;
  }
}

/**
 * The image in `bytes` if it can be sent to a model: one of the four formats, its header whole, and not
 * cut short (each format's end marker there). Otherwise why not, in a few words: a provider refuses a
 * damaged image, and then every later request of the session that still carries it.
 */
export function checkImage(bytes: Uint8Array): ImageInfo | string {
  const format = formatOf(bytes);
  if (!format) return "not a PNG, JPEG, GIF or WebP image";
  const info = imageInfo(bytes);
  if (!info) return `a damaged ${format.toUpperCase()} image (its header is cut short or wrong)`;
  if (!endsWhole(format, bytes)) return `a damaged ${format.toUpperCase()} image (it is cut short)`;
  return info;
}
