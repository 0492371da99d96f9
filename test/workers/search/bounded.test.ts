// grep is bounded whatever a file holds: an over-long line is searched in its first MAX_SCAN_LINE_CHARS
// characters and the rest skipped (a 1 GB single-line file answers, with a note, instead of reading a
// gigabyte into one string), the time budget is checked inside a file, and a file swapped for a symlink
// to outside after the path check is not read.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { closeSync, mkdirSync, openSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { grep } from "../../../workers/search/grep.ts";
import { MAX_SCAN_LINE_CHARS, scanFile } from "../../../workers/search/scan-file.ts";
import { removeDir, tempDir } from "../../helpers/cli.ts";

let root: string;
let ws: string;

function text(r: ReturnType<typeof grep>): string {
  return typeof r.content === "string" ? r.content : JSON.stringify(r.content);
}

beforeAll(() => {
  root = tempDir("i-grep-bounds-");
  ws = join(root, "ws");
  mkdirSync(ws);
});
afterAll(() => removeDir(root));

describe("over-long lines", () => {
  test("a match in the searched head of a long line is found; the line is reported clipped, with a note", () => {
    writeFileSync(
      join(ws, "long.txt"),
      `head-needle ${"y".repeat(MAX_SCAN_LINE_CHARS * 3)} tail-needle\nneedle two\n`,
    );
    const out = text(grep(ws, { pattern: "needle", path: "long.txt" }));
    expect(out).toContain("long.txt:1: head-needle");
    expect(out).toContain("long.txt:2: needle two");
    expect(out).toContain(
      `[lines longer than ${MAX_SCAN_LINE_CHARS} characters were searched only in their first`,
    );
  });

  test("a 1 GB file that is one line: answered well within the host's deadline, with the note", () => {
    const big = join(ws, "huge.txt");
    const fd = openSync(big, "w");
    const chunk = Buffer.alloc(1 << 20, "a");
    for (let i = 0; i < 1024; i++) writeSync(fd, chunk);
    closeSync(fd);
    const before = process.memoryUsage().rss;
    const started = Date.now();
    const out = text(grep(ws, { pattern: "zzz", path: "huge.txt" }));
    // The worker host evicts a search worker after 15 s; the answer must come before that.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(out).toContain("no matches");
    expect(out).toMatch(/searched only in their first \d+ \(huge\.txt\)|search stopped after/);
    // One chunk and one bounded line in memory, not the gigabyte.
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  }, 60_000);
});

describe("time budget inside a file", () => {
  test("a deadline that passes mid-file stops the scan there", () => {
    const f = join(ws, "many.txt");
    writeFileSync(f, "line\n".repeat(100_000));
    let hits = 0;
    const r = scanFile(f, /line/, () => ++hits > 0, { deadline: Date.now() - 1 });
    expect(r.status).toBe("timeout");
    expect(hits).toBe(0);
  });
});

describe.skipIf(process.platform !== "linux")("confinement", () => {
  test("a file reached through a swapped-in symlink is not read (descriptor check)", () => {
    const outside = join(root, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "secret.txt"), "needle OUTSIDE\n");
    symlinkSync(outside, join(ws, "swapped"));
    // As if the walk had listed ws/swapped/secret.txt while "swapped" was still a real directory.
    const r = scanFile(join(ws, "swapped", "secret.txt"), /needle/, () => true, { root: ws });
    expect(r.status).toBe("outside");
  });
});
