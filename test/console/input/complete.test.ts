// Tab completion of slash commands and @paths: confined to the workspace, .gitignore'd noise skipped.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathCandidates } from "../../../src/agent/path-candidates.ts";
import { commonPrefix, complete } from "../../../src/console/input/complete.ts";
import { removeDir, tempDir } from "../../helpers/cli.ts";

let root: string;
let ws: string;
beforeEach(() => {
  root = tempDir();
  ws = join(root, "ws");
  for (const d of ["src/console", "node_modules/x", ".git", "dist", "secret-outside"])
    mkdirSync(join(d === "secret-outside" ? root : ws, d), { recursive: true });
  for (const f of ["src/main.ts", "src/model.ts", "README.md", ".gitignore", "dist/out.js"])
    writeFileSync(join(ws, f), f === ".gitignore" ? "dist/\n*.log\n" : "x");
  writeFileSync(join(ws, "debug.log"), "x");
  symlinkSync(join(root, "secret-outside"), join(ws, "out-link"));
  symlinkSync(join(ws, "src"), join(ws, "in-link"));
});
afterEach(() => removeDir(root));

const ctx = () => ({
  commands: ["help", "model", "new", "exit", "compact"],
  paths: (partial: string) => pathCandidates(ws, partial),
});

describe("completion", () => {
  test("slash commands at the start of the input", () => {
    expect(complete("/m", 2, ctx())?.candidates).toEqual(["/model"]);
    expect(complete("/", 1, ctx())?.candidates).toEqual(["/compact", "/exit", "/help", "/model", "/new"]);
    expect(complete("/model gpt", 10, ctx())).toBeUndefined();
  });

  test("@paths: entries of the typed directory, directories with a slash, noise skipped", () => {
    expect(complete("look at @", 9, ctx())?.candidates).toEqual(["README.md", "in-link/", "src/"]);
    const c = complete("read @src/m please", 11, ctx());
    expect(c?.candidates).toEqual(["src/main.ts", "src/model.ts"]);
    expect(c?.from).toBe(6);
    expect(commonPrefix(c?.candidates ?? [])).toBe("src/m");
    expect(complete("@src/c", 6, ctx())?.candidates).toEqual(["src/console/"]);
  });

  test("nothing outside the workspace, by .. or through a link", () => {
    expect(complete("@../", 4, ctx())?.candidates).toEqual([]);
    expect(complete("@out-link/", 10, ctx())?.candidates).toEqual([]);
    expect(complete("@/etc/", 6, ctx())?.candidates).toEqual([]);
  });
});
