// Every configuration snippet of docs/acp.md parses in its own language:
// JSON as JSON, Lua with a Lua parser, Emacs Lisp with a reader of its syntax, shell with `bash -n`.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { ROOT } from "../helpers/cli.ts";

const luaparse = createRequire(import.meta.url)("luaparse") as {
  parse(code: string, opts?: object): unknown;
};

interface Snippet {
  lang: string;
  code: string;
  where: string;
}

function snippets(file: string): Snippet[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1] as string,
    code: m[2] as string,
    where: `${file}: ${(m[2] as string).split("\n")[0]}`,
  }));
}

/** Reads every form of an Emacs Lisp text (lists, vectors, strings, chars, quotes, comments); throws on a syntax error. */
export function readElisp(src: string): number {
  let i = 0;
  let forms = 0;
  const depth: string[] = [];
  const close: Record<string, string> = { "(": ")", "[": "]" };
  while (i < src.length) {
    const c = src[i] as string;
    if (c === ";") {
      while (i < src.length && src[i] !== "\n") i++;
    } else if (c === '"') {
      i++;
      while (i < src.length && src[i] !== '"') i += src[i] === "\\" ? 2 : 1;
      if (i >= src.length) throw new Error("unterminated string");
      i++;
    } else if (c === "?") {
      i += src[i + 1] === "\\" ? 3 : 2;
    } else if (c === "(" || c === "[") {
      depth.push(close[c] as string);
      i++;
    } else if (c === ")" || c === "]") {
      if (depth.pop() !== c) throw new Error(`unbalanced ${c} at ${i}`);
      if (depth.length === 0) forms++;
      i++;
    } else i++;
  }
  if (depth.length > 0) throw new Error(`${depth.length} unclosed list(s)`);
  return forms;
}

const all = snippets("docs/acp.md");

describe("ACP configuration snippets parse", () => {
  test("there are snippets for every client the docs name", () => {
    const langs = all.map((s) => s.lang);
    expect(langs.filter((l) => l === "json").length).toBeGreaterThanOrEqual(3);
    expect(langs).toContain("lua");
    expect(langs).toContain("elisp");
    expect(langs).toContain("sh");
  });

  for (const s of all)
    test(`${s.lang}: ${s.where}`, () => {
      if (s.lang === "json") JSON.parse(s.code);
      else if (s.lang === "lua") luaparse.parse(s.code, { luaVersion: "5.1" });
      else if (s.lang === "elisp") expect(readElisp(s.code)).toBeGreaterThan(0);
      else if (s.lang === "sh") {
        const r = spawnSync("bash", ["-n"], { input: s.code, encoding: "utf8" });
        expect(r.stderr).toBe("");
        expect(r.status).toBe(0);
      } else throw new Error(`no parser for ${s.lang}`);
    });

  test("the reader catches what a broken snippet looks like", () => {
    expect(() => readElisp("(a (b)")).toThrow();
    expect(() => readElisp('(a "b)')).toThrow();
    expect(() => luaparse.parse("x = {")).toThrow();
  });
});
