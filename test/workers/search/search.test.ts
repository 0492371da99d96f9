import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseGitignore } from "../../../src/lib/gitignore.ts";
import { compileGlob } from "../../../src/lib/glob.ts";
import { MAX_LINE_CHARS } from "../../../workers/search/grep.ts";
import { createSearchModule } from "../../../workers/search/index.ts";
import { removeDir, tempDir } from "../../helpers/cli.ts";
import { inProcess, type WorkerClient } from "../../helpers/worker-io.ts";

let root: string;
let ws: string;
let worker: WorkerClient;

function put(rel: string, text: string | Uint8Array): void {
  const file = join(ws, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

beforeAll(() => {
  root = tempDir("i-search-");
  ws = join(root, "ws");
  put("src/app.ts", "import x from 'y';\nconst needle = 1;\n// NEEDLE in caps\n");
  put("src/lib/util.ts", "export const needle = 2;\n");
  put("src/lib/util.js", "var needle = 3;\n");
  put("README.md", "no match here\nneedle in docs");
  put("long.txt", `needle ${"x".repeat(2000)}\n`);
  put("bin.dat", new Uint8Array([110, 101, 101, 100, 108, 101, 0, 1, 2]));
  put(".git/config", "needle in git\n");
  put("node_modules/pkg/index.js", "needle in deps\n");
  put("dist/out.js", "needle in build output\n");
  put("logs/today.log", "needle in a log\n");
  put("keep.log", "needle kept by negation\n");
  put(".gitignore", "# build\n/dist/\n*.log\n!keep.log\n");
  put("crlf.txt", "first\r\nneedle with crlf\r\n");
  put(
    "deep/big.txt",
    `${"filler line of text\n".repeat(9000)}DEEPMARK here\n${"tail\n".repeat(10)}DEEPMARK end`,
  );
  writeFileSync(join(root, "outside.txt"), "needle outside the workspace\n");
  mkdirSync(join(root, "outdir"));
  writeFileSync(join(root, "outdir", "secret.ts"), "needle secret\n");
  symlinkSync(join(root, "outside.txt"), join(ws, "link-out.txt"));
  symlinkSync(join(root, "outdir"), join(ws, "dir-out"));
  symlinkSync(join(ws, "src", "app.ts"), join(ws, "link-in.ts"));
  worker = inProcess(createSearchModule());
});

afterAll(async () => {
  await worker.close();
  removeDir(root);
});

type Result = { content: string; is_error: boolean };
async function call(name: string, args: unknown): Promise<Result> {
  return (await worker.request("tool", { name, arguments: args, call_id: "c" }, ws)).data?.result as Result;
}

describe("glob and .gitignore", () => {
  test("globs", () => {
    expect(compileGlob("*.ts")("a/b/c.ts")).toBe(true);
    expect(compileGlob("src/**/*.ts")("src/x.ts")).toBe(true);
    expect(compileGlob("src/**/*.ts")("src/a/b/x.ts")).toBe(true);
    expect(compileGlob("src/*.ts")("src/a/x.ts")).toBe(false);
    expect(compileGlob("**/*.{ts,js}")("a/b.js")).toBe(true);
    expect(compileGlob("file?.[ch]")("file1.c")).toBe(true);
    expect(compileGlob("file?.[!ch]")("file1.c")).toBe(false);
    expect(() => compileGlob("a[b")).toThrow("unclosed");
  });
  test("gitignore rules: anchoring, directories, negation", () => {
    const ig = parseGitignore("/build\ntmp/\n*.o\n!keep.o\ndocs/*.md\n");
    expect(ig("build", true)).toBe(true);
    expect(ig("sub/build", true)).toBe(false);
    expect(ig("a/tmp", true)).toBe(true);
    expect(ig("a/tmp", false)).toBe(false);
    expect(ig("x/y.o", false)).toBe(true);
    expect(ig("x/keep.o", false)).toBe(false);
    expect(ig("docs/a.md", false)).toBe(true);
    expect(ig("docs/sub/a.md", false)).toBe(false);
  });
});

describe("grep", () => {
  test("finds matches as path:line: text, in path order, skipping ignored, binary and linked-out files", async () => {
    const r = await call("grep", { pattern: "needle" });
    expect(r.is_error).toBe(false);
    const lines = r.content.split("\n");
    expect(lines).toEqual([
      "README.md:2: needle in docs",
      "crlf.txt:2: needle with crlf",
      "keep.log:1: needle kept by negation",
      "link-in.ts:2: const needle = 1;",
      expect.stringMatching(/^long\.txt:1: needle x+…$/),
      "src/app.ts:2: const needle = 1;",
      "src/lib/util.js:1: var needle = 3;",
      "src/lib/util.ts:1: export const needle = 2;",
    ]);
    expect((lines[4] ?? "").length).toBeLessThanOrEqual("long.txt:1: ".length + MAX_LINE_CHARS);
  });

  test("ignore_case, glob and path narrow the search", async () => {
    expect((await call("grep", { pattern: "NEEDLE", path: "src/app.ts" })).content).toBe(
      "src/app.ts:3: // NEEDLE in caps",
    );
    expect((await call("grep", { pattern: "NEEDLE", path: "src/app.ts", ignore_case: true })).content).toBe(
      "src/app.ts:2: const needle = 1;\nsrc/app.ts:3: // NEEDLE in caps",
    );
    expect((await call("grep", { pattern: "needle", glob: "*.ts" })).content).toBe(
      "link-in.ts:2: const needle = 1;\nsrc/app.ts:2: const needle = 1;\nsrc/lib/util.ts:1: export const needle = 2;",
    );
    expect((await call("grep", { pattern: "needle", path: "src/lib" })).content).toBe(
      "src/lib/util.js:1: var needle = 3;\nsrc/lib/util.ts:1: export const needle = 2;",
    );
  });

  test("results are capped with a note", async () => {
    const r = await call("grep", { pattern: "needle", max_results: 2 });
    expect(r.content.split("\n")).toEqual([
      "README.md:2: needle in docs",
      "crlf.txt:2: needle with crlf",
      "[results capped at 2; there may be more: narrow the pattern, path or glob]",
    ]);
  });

  test("no matches, bad regex, bad glob, bad arguments", async () => {
    expect(await call("grep", { pattern: "zzzz-nothing" })).toEqual({
      content: "no matches",
      is_error: false,
    });
    expect((await call("grep", { pattern: "(" })).content).toContain("invalid regular expression");
    expect((await call("grep", { pattern: "x", glob: "{a" })).content).toContain("invalid glob");
    expect((await call("grep", { pattern: "" })).is_error).toBe(true);
    expect((await call("grep", { pattern: "x", max_results: 9999 })).is_error).toBe(true);
  });

  test("refuses paths outside the workspace, lexically or through symbolic links", async () => {
    for (const path of [
      "..",
      "../outside.txt",
      join(root, "outside.txt"),
      "dir-out",
      "link-out.txt",
      "dir-out/secret.ts",
    ]) {
      const r = await call("grep", { pattern: "needle", path });
      expect(r.is_error).toBe(true);
      expect(r.content).toMatch(/outside the workspace/);
    }
    expect((await call("grep", { pattern: "x", path: "missing" })).content).toContain("does not exist");
  });

  test("line numbers stay right across read chunks, for literal and regex patterns", async () => {
    const expected = "deep/big.txt:9001: DEEPMARK here\ndeep/big.txt:9012: DEEPMARK end";
    expect((await call("grep", { pattern: "DEEPMARK" })).content).toBe(expected);
    expect((await call("grep", { pattern: "DEEP[A-Z]+" })).content).toBe(expected);
    expect((await call("grep", { pattern: "deepmark", ignore_case: true, path: "deep" })).content).toBe(
      expected,
    );
  });

  test("a binary file named directly says so", async () => {
    expect((await call("grep", { pattern: "needle", path: "bin.dat" })).content).toBe(
      "bin.dat is a binary file",
    );
  });
});

describe("find", () => {
  test("relative paths, sorted, ignored and linked-out entries skipped", async () => {
    expect((await call("find", { pattern: "*.ts" })).content).toBe("link-in.ts\nsrc/app.ts\nsrc/lib/util.ts");
    expect((await call("find", { pattern: "src/**" })).content).toBe(
      "src/app.ts\nsrc/lib/util.js\nsrc/lib/util.ts",
    );
    expect((await call("find", { pattern: "*.log" })).content).toBe("keep.log");
    expect((await call("find", { pattern: "*.js", path: "src" })).content).toBe("src/lib/util.js");
  });

  test("capped with a note, nothing found, refusals", async () => {
    expect((await call("find", { pattern: "**", max_results: 3 })).content).toBe(
      "README.md\nbin.dat\ncrlf.txt\n[results capped at 3; narrow the pattern or path to see the rest]",
    );
    expect(await call("find", { pattern: "*.nothing" })).toEqual({
      content: "no files found",
      is_error: false,
    });
    expect((await call("find", { pattern: "*", path: "../" })).content).toContain("outside the workspace");
    expect((await call("find", { pattern: "*", path: "dir-out" })).content).toContain(
      "outside the workspace",
    );
    expect((await call("find", { pattern: "*", path: "README.md" })).content).toContain("not a directory");
  });
});
