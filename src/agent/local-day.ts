// The local calendar day (the system prompt's "YYYY-MM-DD (Weekday)"), read from the time zone file itself.
// The engine's own local time (Date#getDay and friends) loads its ICU time zone data on first use: 8-13 ms
// of the core's CPU at every session's start, for one line of the prompt. A TZif file (RFC 8536) is a few
// KB: its transitions give the offset now, and its footer's rule the offset past the last transition.
// Where the file cannot answer (Windows, no file for TZ, leap-second zones, a rule form not read here),
// the engine does: the same day, at its cost.
import { join } from "node:path";
import { readRegularBytes } from "../lib/regular-file.ts";

export interface LocalDay {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  /** 0 = Sunday */
  weekday: number;
}

/** The bytes of a zone file, undefined when there is none; throws when it cannot be read. */
type Reader = (path: string) => Uint8Array | undefined;

/** Zone files are a few KB (the largest fat ones under 4 KB); TZ may name any path, even a FIFO. */
const MAX_ZONE_FILE_BYTES = 64 * 1024;
const readZoneFile: Reader = (path) => readRegularBytes(path, MAX_ZONE_FILE_BYTES, "a time zone file");

/** The day `now` falls on where the user is (TZ, else /etc/localtime). */
export function localDay(
  now: Date,
  env: NodeJS.ProcessEnv = process.env,
  read: Reader = readZoneFile,
): LocalDay {
  const seconds = Math.floor(now.getTime() / 1000);
  const offset = process.platform === "win32" ? undefined : zoneOffset(seconds, env, read);
  if (offset === undefined) {
    return { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate(), weekday: now.getDay() };
  }
  const local = new Date((seconds + offset) * 1000);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    weekday: local.getUTCDay(),
  };
}

/** Seconds east of UTC at `t` for the zone TZ names (else /etc/localtime), or undefined when unknown. */
export function zoneOffset(
  t: number,
  env: NodeJS.ProcessEnv = process.env,
  read: Reader = readZoneFile,
): number | undefined {
  const tz = env.TZ;
  // An empty TZ, or a POSIX rule given in TZ itself: the engine reads those its own way.
  if (tz === "") return undefined;
  const name = tz?.startsWith(":") ? tz.slice(1) : tz;
  if (name?.split("/").includes("..")) return undefined;
  const path =
    name === undefined
      ? "/etc/localtime"
      : name.startsWith("/")
        ? name
        : join(env.TZDIR || "/usr/share/zoneinfo", name);
  try {
    const bytes = read(path);
    return bytes ? tzifOffset(bytes, t) : undefined;
  } catch {
    return undefined;
  }
}

interface Counts {
  isut: number;
  isstd: number;
  leap: number;
  time: number;
  type: number;
  char: number;
}

function header(v: DataView, at: number): Counts | undefined {
  if (v.byteLength < at + 44 || v.getUint32(at) !== 0x545a6966) return undefined; // "TZif"
  const n = (i: number) => v.getUint32(at + 20 + 4 * i);
  return { isut: n(0), isstd: n(1), leap: n(2), time: n(3), type: n(4), char: n(5) };
}

/** The UTC offset a TZif file gives for instant `t` (seconds), or undefined when it cannot say. */
export function tzifOffset(bytes: Uint8Array, t: number): number | undefined {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let c = header(v, 0);
  if (!c) return undefined;
  let at = 0;
  let size = 4;
  if (bytes[4] !== 0) {
    // Version 2 and later repeat the data with 64-bit times after the version-1 block, then a footer.
    at = 44 + c.time * 5 + c.type * 6 + c.char + c.leap * 8 + c.isstd + c.isut;
    c = header(v, at);
    if (!c) return undefined;
    size = 8;
  }
  // Leap-second ("right/") zones count seconds differently from the clock.
  if (c.leap > 0 || c.type === 0) return undefined;
  const body = at + 44;
  const types = body + c.time * (size + 1);
  const end = types + c.type * 6 + c.char + c.leap * (size + 4) + c.isstd + c.isut;
  if (end > bytes.length) return undefined;
  const timeAt = (i: number) => (size === 8 ? Number(v.getBigInt64(body + i * 8)) : v.getInt32(body + i * 4));
  const utoff = (type: number) => (type < c.type ? v.getInt32(types + type * 6) : undefined);
  // Before the first transition (or with none), local time is the first type's.
  if (c.time === 0) return size === 8 ? footerOr(bytes, end, t, utoff(0)) : utoff(0);
  if (t < timeAt(0)) return utoff(0);
  let lo = 0;
  let hi = c.time - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (timeAt(mid) <= t) lo = mid;
    else hi = mid - 1;
  }
  const current = utoff(bytes[body + c.time * size + lo] as number);
  return lo === c.time - 1 && size === 8 ? footerOr(bytes, end, t, current) : current;
}

/** Past the last transition the footer's POSIX rule decides; with no footer, the last type holds. */
function footerOr(bytes: Uint8Array, at: number, t: number, last: number | undefined): number | undefined {
  if (bytes[at] !== 0x0a) return last;
  const stop = bytes.indexOf(0x0a, at + 1);
  if (stop === -1) return undefined;
  const rule = new TextDecoder().decode(bytes.subarray(at + 1, stop));
  return rule === "" ? last : posixOffset(rule, t);
}

const NAME = /^(?:[A-Za-z]{3,}|<[+\-\w]+>)/;
const OFFSET = /^([+-]?)(\d{1,3})(?::(\d{1,2})(?::(\d{1,2}))?)?/;

function readOffset(s: string): [number, string] | undefined {
  const m = OFFSET.exec(s);
  if (!m) return undefined;
  const secs = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
  return [m[1] === "-" ? -secs : secs, s.slice(m[0].length)];
}

/** The offset a POSIX TZ rule ("CET-1CEST,M3.5.0,M10.5.0/3") gives at `t`; only the M-form of dates. */
export function posixOffset(rule: string, t: number): number | undefined {
  let s = rule;
  const std = NAME.exec(s);
  if (!std) return undefined;
  const stdOff = readOffset(s.slice(std[0].length));
  if (!stdOff) return undefined;
  s = stdOff[1];
  // POSIX offsets count west of UTC: "CET-1" is UTC+1.
  const standard = -stdOff[0];
  if (s === "") return standard;
  const dst = NAME.exec(s);
  if (!dst) return undefined;
  s = s.slice(dst[0].length);
  let daylight = standard + 3600;
  if (!s.startsWith(",")) {
    const d = readOffset(s);
    if (!d) return undefined;
    daylight = -d[0];
    s = d[1];
  }
  const m = /^,(M[\d.]+(?:\/[+-]?[\d:]+)?),(M[\d.]+(?:\/[+-]?[\d:]+)?)$/.exec(s);
  if (!m) return undefined;
  const year = new Date((t + standard) * 1000).getUTCFullYear();
  const start = ruleInstant(m[1] as string, year);
  const end = ruleInstant(m[2] as string, year);
  if (start === undefined || end === undefined) return undefined;
  // The start is given in standard time, the end in daylight time.
  const on = start - standard;
  const off = end - daylight;
  const inDst = on < off ? t >= on && t < off : !(t >= off && t < on);
  return inDst ? daylight : standard;
}

/** "Mm.w.d[/time]" in `year`: seconds since the epoch of that local wall time, as if at UTC. */
function ruleInstant(spec: string, year: number): number | undefined {
  const m = /^M(\d{1,2})\.([1-5])\.([0-6])(?:\/(.+))?$/.exec(spec);
  if (!m) return undefined;
  const month = Number(m[1]);
  const week = Number(m[2]);
  const weekday = Number(m[3]);
  if (month < 1 || month > 12) return undefined;
  const time: [number, string] | undefined = m[4] === undefined ? [7200, ""] : readOffset(m[4]);
  if (time?.[1] !== "") return undefined;
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  let day = 1 + ((weekday - first + 7) % 7) + 7 * (week - 1);
  const length = new Date(Date.UTC(year, month, 0)).getUTCDate();
  while (day > length) day -= 7;
  return Date.UTC(year, month - 1, day) / 1000 + time[0];
}
