// The local day read from the time zone files, checked against the engine's own ICU time zones (Intl with
// an explicit zone) for real zones of the system's tzdata: the offset at and around every transition
// from 1990 to 2037 and at a stride between, and past 2037, where the footer's rule decides.
import { afterAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localDay, posixOffset, tzifOffset, zoneOffset } from "../../src/agent/local-day.ts";

const ZONEINFO = "/usr/share/zoneinfo";
const ZONES = [
  "Europe/Paris",
  "America/New_York",
  "America/Sao_Paulo",
  "Australia/Sydney",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Africa/Casablanca",
  "Etc/UTC",
];

const formats = new Map<string, Intl.DateTimeFormat>();
function intlOffset(zone: string, t: number): number {
  const f =
    formats.get(zone) ??
    new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
  formats.set(zone, f);
  const p = Object.fromEntries(f.formatToParts(new Date(t * 1000)).map((x) => [x.type, Number(x.value)]));
  const n = (k: string) => p[k] ?? Number.NaN;
  return (
    (Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second")) - t * 1000) / 1000
  );
}

/** The version-2 transition times of a TZif file, read independently of the module under test. */
function transitions(bytes: Buffer): number[] {
  const count = (at: number, i: number) => bytes.readUInt32BE(at + 20 + 4 * i);
  const v1 =
    44 + count(0, 3) * 5 + count(0, 4) * 6 + count(0, 5) + count(0, 2) * 8 + count(0, 1) + count(0, 0);
  return Array.from({ length: count(v1, 3) }, (_, i) => Number(bytes.readBigInt64BE(v1 + 44 + i * 8)));
}

const Y1990 = Date.UTC(1990, 0, 1) / 1000;
const Y2037 = Date.UTC(2037, 0, 1) / 1000;

describe.skipIf(!existsSync(`${ZONEINFO}/Europe/Paris`))("the offset from the system's zone files", () => {
  for (const zone of ZONES) {
    test(zone, () => {
      const bytes = readFileSync(`${ZONEINFO}/${zone}`);
      const instants = transitions(bytes)
        .filter((t) => t >= Y1990 && t < Y2037)
        .flatMap((t) => [t - 1, t, t + 1]);
      for (let t = Y1990; t < Y2037; t += 83_777) instants.push(t);
      // Past the file's transitions (2037 and later) the footer's POSIX rule decides.
      for (let t = Y2037; t < Y2037 + 30 * 31_556_952; t += 97_213) instants.push(t);
      const wrong = instants
        .map((t) => ({ t, ours: tzifOffset(bytes, t), engine: intlOffset(zone, t) }))
        .filter((r) => r.ours !== r.engine);
      expect(wrong.slice(0, 3)).toEqual([]);
    });
  }

  test("TZ picks the zone (with or without a leading colon); unset, /etc/localtime", () => {
    const t = Date.UTC(2026, 6, 1, 12) / 1000;
    expect(zoneOffset(t, { TZ: "Asia/Kolkata" }, readFileSync)).toBe(19_800);
    expect(zoneOffset(t, { TZ: ":America/New_York" }, readFileSync)).toBe(-14_400);
    expect(zoneOffset(t, { TZ: `${ZONEINFO}/Europe/Paris` }, readFileSync)).toBe(7200);
    const seen: string[] = [];
    zoneOffset(t, {}, (p) => {
      seen.push(p);
      return readFileSync(`${ZONEINFO}/Etc/UTC`);
    });
    expect(seen).toEqual(["/etc/localtime"]);
  });

  test("a day across midnight: the zone's date and weekday, not UTC's", () => {
    // 2026-12-31 23:30 UTC is already Friday 2027-01-01 in Paris, still Thursday in New York.
    const now = new Date(Date.UTC(2026, 11, 31, 23, 30));
    expect(localDay(now, { TZ: "Europe/Paris" })).toEqual({ year: 2027, month: 1, day: 1, weekday: 5 });
    expect(localDay(now, { TZ: "America/New_York" })).toEqual({ year: 2026, month: 12, day: 31, weekday: 4 });
  });
});

describe("where the files cannot answer, the engine does", () => {
  const now = new Date(Date.UTC(2026, 3, 5, 22));
  const engine = {
    year: now.getFullYear(),
    month: now.getMonth() + 1,
    day: now.getDate(),
    weekday: now.getDay(),
  };
  test("no file for TZ, a file that is not TZif, a path that climbs out of the zone directory", () => {
    expect(zoneOffset(0, { TZ: "No/Such_Zone" }, readFileSync)).toBeUndefined();
    expect(tzifOffset(new TextEncoder().encode("not a zone file at all, just text here..........."), 0)).toBe(
      undefined,
    );
    expect(zoneOffset(0, { TZ: "../../etc/passwd" }, readFileSync)).toBeUndefined();
    expect(zoneOffset(0, { TZ: "No/Such_Zone" })).toBeUndefined();
    const unreadable = () => {
      throw new Error("EACCES");
    };
    expect(localDay(now, { TZ: "Europe/Paris" }, unreadable)).toEqual(engine);
  });
});

describe.skipIf(process.platform === "win32")("TZ naming what is not a zone file", () => {
  const dir = mkdtempSync(join(tmpdir(), "i-local-day-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  test("a FIFO, a link to /dev/zero, a huge file: refused at once, unread; the engine answers", () => {
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    const zero = join(dir, "zero");
    symlinkSync("/dev/zero", zero);
    const huge = join(dir, "huge");
    writeFileSync(huge, Buffer.alloc(8 * 1024 * 1024, 0x54));
    for (const TZ of [fifo, zero, huge]) expect(zoneOffset(0, { TZ })).toBeUndefined();
    const now = new Date(Date.UTC(2026, 3, 5, 22));
    expect(localDay(now, { TZ: fifo }).weekday).toBe(now.getDay());
  });
});

describe("POSIX rules (a file's footer)", () => {
  const at = (y: number, mo: number, d: number, h: number, mi = 0) => Date.UTC(y, mo - 1, d, h, mi) / 1000;
  test("northern and southern summers, a fractional offset, a rule-less zone", () => {
    const paris = "CET-1CEST,M3.5.0,M10.5.0/3";
    // 2026: summer time from Sunday 29 March 01:00 UTC to Sunday 25 October 01:00 UTC.
    expect(posixOffset(paris, at(2026, 3, 29, 0, 59))).toBe(3600);
    expect(posixOffset(paris, at(2026, 3, 29, 1))).toBe(7200);
    expect(posixOffset(paris, at(2026, 10, 25, 0, 59))).toBe(7200);
    expect(posixOffset(paris, at(2026, 10, 25, 1))).toBe(3600);
    const sydney = "AEST-10AEDT,M10.1.0,M4.1.0/3";
    expect(posixOffset(sydney, at(2026, 1, 15, 0))).toBe(39_600);
    expect(posixOffset(sydney, at(2026, 7, 15, 0))).toBe(36_000);
    expect(posixOffset("<+0545>-5:45", 0)).toBe(20_700);
    expect(posixOffset("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", at(2026, 1, 1, 0))).toBe(39_600);
    expect(posixOffset("EST5EDT,J60,J300", 0)).toBeUndefined();
  });
});
