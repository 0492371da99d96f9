// The release archive writers, read back by independent readers: GNU tar for .tar.gz and Python's zipfile
// (plus unzip when present) for .zip. Same members in any order give the same bytes.
import { afterAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { type Entry, gzip, tar, zip } from "../../scripts/release/archive.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";

const dir = tempDir("i-archive-");
afterAll(() => removeDir(dir));

const long = `top/${"deep-folder-name/".repeat(8)}file-with-a-long-name.txt`;
const ENTRIES: Entry[] = [
  { path: "top/", mode: 0o755 },
  { path: "top/bin/", mode: 0o755 },
  { path: "top/bin/tool", mode: 0o755, data: new TextEncoder().encode("#!/bin/sh\necho hi\n") },
  { path: "top/README.md", mode: 0o644, data: new TextEncoder().encode("# read me — ünïcode\n") },
  { path: "top/empty", mode: 0o644, data: new Uint8Array(0) },
  { path: `${long.slice(0, long.lastIndexOf("/") + 1)}`, mode: 0o755 },
  { path: long, mode: 0o644, data: new Uint8Array(3000).fill(65) },
];
const shuffled = [...ENTRIES].reverse();

describe("tar.gz", () => {
  const file = join(dir, "a.tar.gz");
  const bytes = gzip(tar(ENTRIES));
  writeFileSync(file, bytes);

  test("the same members in another order give the same bytes; gzip carries no timestamp", () => {
    expect(Buffer.from(gzip(tar(shuffled))).equals(Buffer.from(bytes))).toBe(true);
    expect(Buffer.from(bytes.subarray(4, 8)).readUInt32LE(0)).toBe(0);
    expect(tar(ENTRIES).length % 10240).toBe(0);
    expect(gunzipSync(bytes).length).toBe(tar(ENTRIES).length);
  });

  test("GNU tar lists sorted members owned by 0/0 at one fixed time, with their modes", () => {
    const r = spawnSync("tar", ["--numeric-owner", "-tvzf", file], { encoding: "utf8" });
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split("\n");
    const names = lines.map((l) => l.split(/\s+/).at(-1));
    expect(names).toEqual([...ENTRIES.map((e) => e.path)].sort());
    for (const l of lines) expect(l).toMatch(/^[-d]rw[-x]r-[-x]r-[-x] 0\/0 +\d+ 1980-01-01 00:00 /);
    expect(lines.find((l) => l.endsWith("top/bin/tool"))).toStartWith("-rwxr-xr-x");
    expect(lines.find((l) => l.endsWith("top/README.md"))).toStartWith("-rw-r--r--");
  });

  test("GNU tar extracts the same contents, long ustar names included", () => {
    const out = join(dir, "x");
    spawnSync("mkdir", ["-p", out]);
    const r = spawnSync("tar", ["-xzf", file, "-C", out], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(readFileSync(join(out, long), "utf8")).toBe("A".repeat(3000));
    expect(readFileSync(join(out, "top/README.md"), "utf8")).toBe("# read me — ünïcode\n");
  });
});

describe("zip", () => {
  const file = join(dir, "a.zip");
  const bytes = zip(ENTRIES);
  writeFileSync(file, bytes);

  test("the same members in another order give the same bytes", () => {
    expect(Buffer.from(zip(shuffled)).equals(Buffer.from(bytes))).toBe(true);
  });

  const python = spawnSync("python3", ["--version"]).status === 0;
  test.skipIf(!python)("Python's zipfile reads it: CRCs, contents, modes, sorted names, fixed time", () => {
    const script = `
import json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None
print(json.dumps([[i.filename, i.external_attr >> 16, list(i.date_time), z.read(i).decode()] for i in z.infolist()]))
`;
    const r = spawnSync("python3", ["-c", script, file], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    const infos = JSON.parse(r.stdout) as [string, number, number[], string][];
    expect(infos.map((i) => i[0])).toEqual([...ENTRIES.map((e) => e.path)].sort());
    const byName = new Map(infos.map((i) => [i[0], i]));
    expect(byName.get("top/bin/tool")?.[1]).toBe(0o100755);
    expect(byName.get("top/README.md")?.[1]).toBe(0o100644);
    expect(byName.get("top/")?.[1]).toBe(0o040755);
    expect(byName.get("top/README.md")?.[3]).toBe("# read me — ünïcode\n");
    expect(byName.get(long)?.[3]).toBe("A".repeat(3000));
    for (const i of infos) expect(i[2]).toEqual([1980, 1, 1, 0, 0, 0]);
  });

  const unzip = spawnSync("unzip", ["-v"]).status === 0;
  test.skipIf(!unzip)("unzip -t finds no error", () => {
    const r = spawnSync("unzip", ["-t", file], { encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("No errors detected");
  });
});
