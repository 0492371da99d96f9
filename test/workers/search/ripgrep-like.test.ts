// grep and find as ripgrep and fd behave: nested ignore files, hidden files skipped unless asked, inline
// regex flags, context lines, files-only output and globs relative to the directory searched.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createSearchModule } from "../../../workers/search/index.ts";
import { removeDir, tempDir } from "../../helpers/cli.ts";
import { inProcess, type WorkerClient } from "../../helpers/worker-io.ts";

let root: string;
let ws: string;
let worker: WorkerClient;

function put(rel: string, text: string): void {
  const file = join(ws, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

beforeAll(() => {
  root = tempDir("i-rg-");
  ws = join(root, "ws");
  put(".gitignore", "*.tmp\n");
  put(".env", "TOKEN=needle-secret\n");
  put(".config/tool.json", '{"needle": true}\n');
  put("app/.gitignore", "generated/\n!keep.tmp\n/local.ts\n");
  put("app/main.ts", "const needle = 1;\n");
  put("app/local.ts", "needle local\n");
  put("app/sub/local.ts", "needle sub local\n");
  put("app/generated/out.ts", "needle generated\n");
  put("app/keep.tmp", "needle kept\n");
  put("app/drop.tmp", "needle dropped\n");
  put("lib/.ignore", "vendor/\n");
  put("lib/vendor/v.ts", "needle vendored\n");
  put("lib/ctx.txt", "one\ntwo\nthree NEEDLE\nfour\nfive\nsix\nseven\neight needle\nnine\n");
  put("src/components/Button.tsx", "export const Button = 1;\n");
  put("src/components/deep/Icon.tsx", "export const Icon = 1;\n");
  put("src/other.tsx", "x\n");
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
const files = (r: Result) => r.content.split("\n").map((l) => l.split(":")[0]);

describe("ignore files", () => {
  test("nested .gitignore and .ignore files apply below their directory; a nested ! re-includes", async () => {
    const r = await call("grep", { pattern: "needle", files_only: true });
    expect(r.content.split("\n")).toEqual(["app/keep.tmp", "app/main.ts", "app/sub/local.ts", "lib/ctx.txt"]);
  });

  test("searching inside a directory still honours the ignore files above it", async () => {
    expect((await call("grep", { pattern: "needle", path: "app", files_only: true })).content).toBe(
      "app/keep.tmp\napp/main.ts\napp/sub/local.ts",
    );
    expect((await call("find", { pattern: "*.tmp", path: "app" })).content).toBe("app/keep.tmp");
  });
});

describe("hidden files", () => {
  test("skipped by default: a .env secret is not returned", async () => {
    const r = await call("grep", { pattern: "needle" });
    expect(r.content).not.toContain(".env");
    expect(r.content).not.toContain(".config");
    expect((await call("find", { pattern: "*.json" })).content).toBe("no files found");
  });

  test("hidden: true searches them (ignore files still apply)", async () => {
    const r = await call("grep", { pattern: "needle", hidden: true, files_only: true });
    expect(files(r)).toEqual([
      ".config/tool.json",
      ".env",
      "app/keep.tmp",
      "app/main.ts",
      "app/sub/local.ts",
      "lib/ctx.txt",
    ]);
    expect((await call("find", { pattern: "*.json", hidden: true })).content).toBe(".config/tool.json");
  });

  test("a hidden directory named as the path is searched", async () => {
    expect((await call("grep", { pattern: "needle", path: ".config" })).content).toBe(
      '.config/tool.json:1: {"needle": true}',
    );
  });
});

describe("patterns", () => {
  test("(?i) and other leading inline flags are accepted", async () => {
    expect((await call("grep", { pattern: "(?i)NEEDLE", path: "lib/ctx.txt" })).content).toBe(
      "lib/ctx.txt:3: three NEEDLE\nlib/ctx.txt:8: eight needle",
    );
    expect((await call("grep", { pattern: "(?im)^EIGHT", path: "lib" })).content).toBe(
      "lib/ctx.txt:8: eight needle",
    );
    expect((await call("grep", { pattern: "thr(?i:EE) NEEDLE", path: "lib" })).content).toBe(
      "lib/ctx.txt:3: three NEEDLE",
    );
  });

  test("unsupported flags and misplaced inline flags are one clear error", async () => {
    const x = await call("grep", { pattern: "(?x)a b" });
    expect(x).toEqual({
      is_error: true,
      content:
        "grep: the inline flag (?x) is not supported; use (?i), (?s) or (?m), or rewrite the pattern without it",
    });
    const mid = await call("grep", { pattern: "a(?i)b" });
    expect(mid.is_error).toBe(true);
    expect(mid.content).toContain(
      "inline flags like (?i) are accepted only at the start; inside, write (?i:…)",
    );
  });
});

describe("output modes", () => {
  test("context lines before and after, overlapping groups merged, gaps marked --", async () => {
    const r = await call("grep", { pattern: "(?i)needle", path: "lib/ctx.txt", context: 1 });
    expect(r.content).toBe(
      [
        "lib/ctx.txt-2- two",
        "lib/ctx.txt:3: three NEEDLE",
        "lib/ctx.txt-4- four",
        "--",
        "lib/ctx.txt-7- seven",
        "lib/ctx.txt:8: eight needle",
        "lib/ctx.txt-9- nine",
      ].join("\n"),
    );
    const close = await call("grep", { pattern: "(?i)needle", path: "lib/ctx.txt", context: 3 });
    expect(close.content).not.toContain("--");
    expect(close.content.split("\n")).toHaveLength(9);
  });

  test("context groups of different files are separated too", async () => {
    const r = await call("grep", { pattern: "needle", path: "app", context: 1 });
    expect(r.content).toBe(
      "app/keep.tmp:1: needle kept\n--\napp/main.ts:1: const needle = 1;\n--\napp/sub/local.ts:1: needle sub local",
    );
  });

  test("files_only lists each matching file once", async () => {
    expect((await call("grep", { pattern: "needle", path: "lib", files_only: true })).content).toBe(
      "lib/ctx.txt",
    );
    expect((await call("grep", { pattern: "nothing-like-this", files_only: true })).content).toBe(
      "no files match",
    );
  });
});

describe("globs relative to path", () => {
  test("find path=src pattern=components/*.tsx finds src/components/Button.tsx", async () => {
    expect((await call("find", { pattern: "components/*.tsx", path: "src" })).content).toBe(
      "src/components/Button.tsx",
    );
    expect((await call("find", { pattern: "components/**/*.tsx", path: "src" })).content).toBe(
      "src/components/Button.tsx\nsrc/components/deep/Icon.tsx",
    );
  });

  test("workspace-relative globs keep working", async () => {
    expect((await call("find", { pattern: "src/components/*.tsx", path: "src" })).content).toBe(
      "src/components/Button.tsx",
    );
  });

  test("grep glob is relative to path too", async () => {
    expect(
      (await call("grep", { pattern: "export", path: "src", glob: "components/*.tsx", files_only: true }))
        .content,
    ).toBe("src/components/Button.tsx");
  });
});
