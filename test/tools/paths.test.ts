// Core safety: file paths stay inside the workspace — lexically and through symlinks — unless allowed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Approvals } from "../../src/tools/approvals.ts";
import { resolveInWorkspace } from "../../src/tools/paths.ts";
import { ToolError } from "../../src/tools/tool-error.ts";
import { makeSandbox, run, type Sandbox } from "./helpers.ts";

let sb: Sandbox;
beforeAll(() => {
  sb = makeSandbox();
  writeFileSync(join(sb.workspace, "in.txt"), "inside\n");
  writeFileSync(join(sb.outside, "secret.txt"), "secret\n");
  mkdirSync(join(sb.workspace, "sub"));
  symlinkSync(join(sb.outside, "secret.txt"), join(sb.workspace, "file-link")); // file symlink escape
  symlinkSync(sb.outside, join(sb.workspace, "dir-link")); // parent directory escape
  symlinkSync(join(sb.outside, "not-yet.txt"), join(sb.workspace, "dangling")); // would create outside
  symlinkSync(join(sb.workspace, "in.txt"), join(sb.workspace, "inner-link")); // stays inside
  writeFileSync(join(sb.workspace, "..notparent"), "a file whose name starts with two dots\n");
});
afterAll(() => sb.cleanup());

const escapes = (p: string) => () => resolveInWorkspace(sb.workspace, p, false);

describe("resolveInWorkspace", () => {
  test("relative paths resolve inside the workspace", () => {
    expect(resolveInWorkspace(sb.workspace, "in.txt")).toBe(join(sb.workspace, "in.txt"));
    expect(resolveInWorkspace(sb.workspace, "sub/../in.txt")).toBe(join(sb.workspace, "in.txt"));
    expect(resolveInWorkspace(sb.workspace, "new/dir/file.txt")).toBe(join(sb.workspace, "new/dir/file.txt"));
    expect(resolveInWorkspace(sb.workspace, ".")).toBe(sb.workspace);
    expect(resolveInWorkspace(sb.workspace, "..notparent")).toBe(join(sb.workspace, "..notparent"));
  });

  test("absolute paths inside the workspace are fine", () => {
    expect(resolveInWorkspace(sb.workspace, join(sb.workspace, "in.txt"))).toBe(join(sb.workspace, "in.txt"));
  });

  test("escape with ..", () => {
    expect(escapes("../outside/secret.txt")).toThrow(ToolError);
    expect(escapes("sub/../../outside/secret.txt")).toThrow(/outside the workspace/);
    expect(escapes("..")).toThrow(/outside the workspace/);
  });

  test("absolute path outside", () => {
    expect(escapes(join(sb.outside, "secret.txt"))).toThrow(/resolves to .*outside the workspace/);
    expect(escapes("/etc/passwd")).toThrow(/outside the workspace/);
  });

  test("symlinked file pointing outside", () => {
    expect(escapes("file-link")).toThrow(/through a symbolic link \(to .*secret\.txt\)/);
  });

  test("symlinked parent directory pointing outside, for existing and new files", () => {
    expect(escapes("dir-link/secret.txt")).toThrow(/through a symbolic link/);
    expect(escapes("dir-link/new/file.txt")).toThrow(/through a symbolic link/);
  });

  test("dangling symlink whose target would be created outside", () => {
    expect(escapes("dangling")).toThrow(/through a symbolic link \(to .*not-yet\.txt\)/);
  });

  test("symlinks that stay inside resolve to their target", () => {
    expect(resolveInWorkspace(sb.workspace, "inner-link")).toBe(join(sb.workspace, "in.txt"));
  });

  test("allowOutside lets every case through, resolved to the real target", () => {
    expect(resolveInWorkspace(sb.workspace, "../outside/secret.txt", true)).toBe(
      join(sb.outside, "secret.txt"),
    );
    expect(resolveInWorkspace(sb.workspace, "file-link", true)).toBe(join(sb.outside, "secret.txt"));
    expect(resolveInWorkspace(sb.workspace, "dir-link/secret.txt", true)).toBe(
      join(sb.outside, "secret.txt"),
    );
  });

  test("empty path", () => {
    expect(escapes("  ")).toThrow(/path is empty/);
  });
});

describe("file tools refuse escapes and touch nothing outside", () => {
  const ctx = () => ({ workspace: sb.workspace, approvals: new Approvals({ policy: "all" }) });

  test("read through a file symlink", async () => {
    const r = await run("read", { path: "file-link" }, ctx());
    expect(r.is_error).toBe(true);
    expect(r.text).toContain("symbolic link");
    expect(r.text).not.toContain("secret\n");
  });

  test("write through a directory symlink", async () => {
    const r = await run("write", { path: "dir-link/planted.txt", content: "x" }, ctx());
    expect(r.is_error).toBe(true);
    expect(existsSync(join(sb.outside, "planted.txt"))).toBe(false);
  });

  test("write through a dangling symlink", async () => {
    const r = await run("write", { path: "dangling", content: "x" }, ctx());
    expect(r.is_error).toBe(true);
    expect(existsSync(join(sb.outside, "not-yet.txt"))).toBe(false);
  });

  test("edit with ..", async () => {
    const r = await run(
      "edit",
      { path: "../outside/secret.txt", old_text: "secret", new_text: "pwned" },
      ctx(),
    );
    expect(r.is_error).toBe(true);
    expect(readFileSync(join(sb.outside, "secret.txt"), "utf8")).toBe("secret\n");
  });

  test("with allowOutside the tools work outside", async () => {
    const r = await run("read", { path: "../outside/secret.txt" }, { ...ctx(), allowOutside: true });
    expect(r.is_error).toBe(false);
    expect(r.text).toBe("1\tsecret");
  });
});
