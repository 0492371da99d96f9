// Reproducible archives, written by our own code so the bytes do not depend on the host's tar or zip:
// entries sorted by path, every timestamp the same fixed instant, owner and group 0 with no names, no
// gzip timestamp or host byte. The same files give the same archive, byte for byte, on any machine.
import { crc32, deflateRawSync, gzipSync } from "node:zlib";

/** One archive member: a directory (path ends with "/", no data) or a regular file. */
export interface Entry {
  path: string;
  /** permission bits only: 0o755 or 0o644 */
  mode: number;
  data?: Uint8Array;
}

/** SOURCE_DATE_EPOCH when set (the reproducible-builds convention), else 1980-01-01, zip's earliest date. */
export function fixedTime(): number {
  const env = process.env.SOURCE_DATE_EPOCH;
  if (env !== undefined && /^\d+$/.test(env) && Number(env) >= 315532800) return Number(env);
  return 315532800;
}

function sorted(entries: readonly Entry[]): Entry[] {
  // Plain code-unit order, not locale order: the same on every machine.
  return [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

// ---------------------------------------------------------------------------------------------- tar

const BLOCK = 512;
/** GNU tar's default record: archives are padded to a multiple of it. */
const RECORD = 20 * BLOCK;
const encoder = new TextEncoder();

function octal(value: number, width: number): string {
  const digits = value.toString(8);
  if (digits.length > width - 1) throw new Error(`tar: ${value} does not fit a ${width}-byte field`);
  return `${digits.padStart(width - 1, "0")}\0`;
}

/** ustar keeps names up to 100 bytes, or 255 split at a "/" into a 155-byte prefix and a 100-byte name. */
function splitName(path: string): { prefix: string; name: string } {
  if (encoder.encode(path).length <= 100) return { prefix: "", name: path };
  for (let i = path.lastIndexOf("/", path.length - 2); i > 0; i = path.lastIndexOf("/", i - 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (encoder.encode(prefix).length <= 155 && encoder.encode(name).length <= 100) return { prefix, name };
  }
  throw new Error(`tar: path too long for ustar: ${path}`);
}

function tarHeader(entry: Entry, size: number, mtime: number): Uint8Array {
  const h = new Uint8Array(BLOCK);
  const put = (offset: number, text: string) => h.set(encoder.encode(text), offset);
  const { prefix, name } = splitName(entry.path);
  put(0, name);
  put(100, octal(entry.mode, 8));
  put(108, octal(0, 8)); // uid
  put(116, octal(0, 8)); // gid
  put(124, octal(size, 12));
  put(136, octal(mtime, 12));
  put(148, "        "); // checksum field counts as spaces while summing
  put(156, entry.data ? "0" : "5");
  put(257, "ustar\0");
  put(263, "00");
  put(329, octal(0, 8)); // devmajor
  put(337, octal(0, 8)); // devminor
  put(345, prefix);
  let sum = 0;
  for (const b of h) sum += b;
  put(148, `${sum.toString(8).padStart(6, "0")}\0 `);
  return h;
}

export function tar(entries: readonly Entry[], mtime = fixedTime()): Uint8Array {
  const parts: Uint8Array[] = [];
  let length = 0;
  const push = (p: Uint8Array) => {
    parts.push(p);
    length += p.length;
  };
  for (const e of sorted(entries)) {
    const size = e.data?.length ?? 0;
    push(tarHeader(e, size, mtime));
    if (e.data) {
      push(e.data);
      const pad = (BLOCK - (size % BLOCK)) % BLOCK;
      if (pad) push(new Uint8Array(pad));
    }
  }
  push(new Uint8Array(2 * BLOCK)); // end of archive
  const total = Math.ceil(length / RECORD) * RECORD;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** gzip without a timestamp (zlib writes 0) and with the "unknown" OS byte, so the host does not show. */
export function gzip(data: Uint8Array): Uint8Array {
  const out = gzipSync(data, { level: 9 });
  out[9] = 255;
  return out;
}

// ---------------------------------------------------------------------------------------------- zip

function dosDateTime(epoch: number): { time: number; date: number } {
  const d = new Date(epoch * 1000);
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/** A zip (deflate, UTF-8 names, Unix permissions in the external attributes). No zip64: members < 4 GiB. */
export function zip(entries: readonly Entry[], mtime = fixedTime()): Uint8Array {
  const { time, date } = dosDateTime(mtime);
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  const list = sorted(entries);
  if (list.length > 0xffff) throw new Error("zip: more than 65535 entries");
  for (const e of list) {
    const name = encoder.encode(e.path);
    const raw = e.data ?? new Uint8Array(0);
    const method = raw.length > 0 ? 8 : 0;
    const body = method === 8 ? deflateRawSync(raw, { level: 9 }) : raw;
    if (raw.length >= 0xffffffff || offset >= 0xffffffff) throw new Error(`zip: ${e.path} needs zip64`);
    const crc = crc32(raw);
    // The fields the local header (at offset 4) and the central directory record (at 6) share.
    const shared = (b: Buffer, at: number) => {
      b.writeUInt16LE(20, at); // version needed: 2.0
      b.writeUInt16LE(0x0800, at + 2); // names are UTF-8
      b.writeUInt16LE(method, at + 4);
      b.writeUInt16LE(time, at + 6);
      b.writeUInt16LE(date, at + 8);
      b.writeUInt32LE(crc, at + 10);
      b.writeUInt32LE(body.length, at + 14);
      b.writeUInt32LE(raw.length, at + 18);
      b.writeUInt16LE(name.length, at + 22);
    };
    const local = Buffer.alloc(30 + name.length);
    local.writeUInt32LE(0x04034b50, 0);
    shared(local, 4);
    local.set(name, 30);
    const central = Buffer.alloc(46 + name.length);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so unzip restores the permission bits
    shared(central, 6);
    const type = e.data ? 0o100000 : 0o040000;
    // High 16 bits: the Unix mode; bit 4: the MS-DOS directory flag.
    central.writeUInt32LE((type | e.mode) * 0x10000 + (e.data ? 0 : 0x10), 38);
    central.writeUInt32LE(offset, 42);
    central.set(name, 46);
    locals.push(local, body);
    centrals.push(central);
    offset += local.length + body.length;
  }
  const cdSize = centrals.reduce((n, c) => n + c.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(list.length, 8);
  end.writeUInt16LE(list.length, 10);
  end.writeUInt32LE(cdSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}
