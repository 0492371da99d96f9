// Input history: per workspace, 0600, bounded, merged with another console's additions, a damaged file
// left alone; Up/Down keep the draft; reverse search.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import {
  HISTORY_MAX_ENTRIES,
  HistoryCursor,
  historyPath,
  InputHistory,
} from "../../../src/console/input/history.ts";
import { removeDir, tempDir } from "../../helpers/cli.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

describe("input history", () => {
  test("persists per workspace, private, newest last, duplicates moved to the end", () => {
    const h = InputHistory.forWorkspace(dir, "/ws/a");
    h.add("first");
    h.add("second");
    h.add("first");
    h.add("   ");
    const again = InputHistory.forWorkspace(dir, "/ws/a");
    expect(again.entries).toEqual(["second", "first"]);
    expect(InputHistory.forWorkspace(dir, "/ws/b").entries).toEqual([]);
    expect(statSync(historyPath(dir, "/ws/a")).mode & 0o777).toBe(0o600);
  });

  test("bounded; another console's entries are merged, not overwritten", () => {
    const path = historyPath(dir, "/ws");
    const a = new InputHistory(path, "/ws", 20);
    const b = new InputHistory(path, "/ws", 20);
    a.add("from a");
    b.add("from b");
    expect(InputHistory.forWorkspace(dir, "/ws").entries).toEqual(["from a", "from b"]);
    for (let i = 0; i < 25; i++) a.add(`n${i}`);
    const all = InputHistory.forWorkspace(dir, "/ws").entries;
    expect(all).toHaveLength(20);
    expect(all.at(-1)).toBe("n24");
    expect(HISTORY_MAX_ENTRIES).toBe(1000);
  });

  test("a damaged file is reported and never overwritten", () => {
    const path = historyPath(dir, "/ws");
    InputHistory.forWorkspace(dir, "/ws").add("x");
    writeFileSync(path, "{not json");
    const h = InputHistory.forWorkspace(dir, "/ws");
    expect(h.problem).toContain(path);
    expect(h.problem).toContain("delete it to start a fresh input history");
    h.add("kept in memory");
    expect(h.entries).toEqual(["kept in memory"]);
    expect(readFileSync(path, "utf8")).toBe("{not json");
  });

  test("Up/Down walk the entries and come back to the draft", () => {
    const h = new InputHistory(undefined);
    for (const e of ["one", "two", "three"]) h.add(e);
    const c = new HistoryCursor(h);
    expect(c.prev("my draft")).toBe("three");
    expect(c.prev("three")).toBe("two");
    expect(c.prev("two")).toBe("one");
    expect(c.prev("one")).toBeUndefined();
    expect(c.next()).toBe("two");
    expect(c.next()).toBe("three");
    expect(c.next()).toBe("my draft");
    expect(c.next()).toBeUndefined();
  });

  test("reverse search finds the newest match, then older ones", () => {
    const h = new InputHistory(undefined);
    for (const e of ["git status", "ls", "git log", "make"]) h.add(e);
    const first = h.search("git");
    expect(first).toBe(2);
    expect(h.search("git", first)).toBe(0);
    expect(h.search("git", 0)).toBeUndefined();
    expect(h.search("nothing")).toBeUndefined();
  });
});
