// Atomic writes and links: the target is the old file or the complete new one, and no temp name is left
// behind, also when the operation fails.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { linkFileAtomic, writeFileAtomic } from "../../src/lib/atomic-write.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "i-atomic-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const tempNames = () => readdirSync(dir).filter((f) => f.endsWith(".tmp"));

describe("writeFileAtomic", () => {
  test("replaces the file with a new one, with the given mode", () => {
    const path = join(dir, "a.json");
    writeFileAtomic(path, "one", 0o600);
    const first = statSync(path).ino;
    writeFileAtomic(path, "two", 0o600);
    expect(readFileSync(path, "utf8")).toBe("two");
    expect(statSync(path).ino).not.toBe(first);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(tempNames()).toEqual([]);
  });
});

describe("linkFileAtomic", () => {
  test("the new name is the same file; replacing the original by rename leaves it intact", () => {
    const original = join(dir, "history.json");
    const keep = join(dir, ".precompact.json");
    writeFileAtomic(original, "old checkpoint");
    writeFileAtomic(keep, "older");
    linkFileAtomic(original, keep);
    expect(statSync(keep).ino).toBe(statSync(original).ino);
    writeFileAtomic(original, "new checkpoint");
    expect(readFileSync(keep, "utf8")).toBe("old checkpoint");
    expect(readFileSync(original, "utf8")).toBe("new checkpoint");
    expect(tempNames()).toEqual([]);
  });

  test("a missing source throws and creates nothing", () => {
    expect(() => linkFileAtomic(join(dir, "missing"), join(dir, "target"))).toThrow();
    expect(readdirSync(dir)).toEqual([]);
  });

  test("a target that cannot be replaced (a directory) throws and leaves no temp name", () => {
    writeFileSync(join(dir, "src"), "x");
    mkdirSync(join(dir, "target"));
    writeFileSync(join(dir, "target", "inside"), "y");
    expect(() => linkFileAtomic(join(dir, "src"), join(dir, "target"))).toThrow();
    expect(tempNames()).toEqual([]);
    expect(readFileSync(join(dir, "target", "inside"), "utf8")).toBe("y");
  });

  test("linking onto a name of the same file leaves no temp name behind", () => {
    writeFileSync(join(dir, "src"), "x");
    linkSync(join(dir, "src"), join(dir, "same"));
    linkFileAtomic(join(dir, "src"), join(dir, "same"));
    expect(readFileSync(join(dir, "same"), "utf8")).toBe("x");
    expect(tempNames()).toEqual([]);
  });
});
