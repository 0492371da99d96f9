// Reads a parsed command as the shell runs it: lists and pipelines in order, subshells and $(…) with
// their own directory, `cd` moving where later commands run, variables assigned on the way, redirections
// and here-docs (a here-doc's text is data, except its $(…) and when a shell reads it as a script).
import type { Parser } from "web-tree-sitter";
import type { Node } from "./parser.ts";
import { parseWith } from "./parser.ts";
import { absolute, realish } from "./paths.ts";
import type { Finding, GuardPlace } from "./types.ts";
import { tildeWord, type Word, wordOf } from "./words.ts";

export interface Scope {
  /** where the next command runs (undefined: only known when it runs) */
  cwd: string | undefined;
  vars: Map<string, string>;
}

/** What a command's input is, when it matters: a here-doc's text, or the output of a download. */
export type Stdin = { script: string } | { download: true } | undefined;

export interface Reading {
  place: GuardPlace;
  /** absent while a plain command is read without it (plain.ts): a nested script then needs it */
  parser: Parser | undefined;
  findings: Finding[];
  /** files this command writes from a here-doc, by absolute path: a script it may then run */
  written: Map<string, string>;
  depth: number;
  /** the simple command judge (commands.ts), passed in to keep the two files apart */
  judge: (words: Word[], env: Map<string, string>, scope: Scope, r: Reading, stdin: Stdin) => void;
  redirect: (target: Word, op: string, scope: Scope, r: Reading, heredoc: string | undefined) => void;
}

const MAX_DEPTH = 64;
const DOWNLOADERS = new Set(["curl", "wget", "fetch", "http", "aria2c"]);

/** Thrown when a command read without the parser runs a script of its own (bash -c, eval, python -c). */
export class ParserNeeded extends Error {}

/** Whether a pipeline stage running `program` (its first word, as written) downloads: what follows reads it. */
export function downloads(program: string | undefined): boolean {
  const name = program?.split("/").at(-1);
  return name !== undefined && DOWNLOADERS.has(name);
}

/** A fresh reading of one command at `place` (without the parser: only a plain one, see plain.ts). */
export function newReading(
  place: GuardPlace,
  parser: Parser | undefined,
  judge: Reading["judge"],
  redirect: Reading["redirect"],
): Reading {
  return { place, parser, findings: [], written: new Map(), depth: 0, judge, redirect };
}

export const copyScope = (s: Scope): Scope => ({ cwd: s.cwd, vars: new Map(s.vars) });

function named(node: Node): Node[] {
  return node.namedChildren.filter((c): c is Node => c !== null);
}

/** Read `text` as a script run at `scope` (bash -c, eval, a here-doc fed to a shell). */
export function readScript(text: string, scope: Scope, r: Reading): void {
  if (!r.parser) throw new ParserNeeded();
  if (r.depth >= MAX_DEPTH) {
    r.findings.push({ kind: "unknown", reason: `nested more than ${MAX_DEPTH} levels deep` });
    return;
  }
  const parsed = parseWith(r.parser, text);
  if (!parsed) {
    r.findings.push({ kind: "unknown", reason: "the command could not be parsed" });
    return;
  }
  try {
    if (parsed.hasError) r.findings.push({ kind: "unknown", reason: "the command could not be parsed" });
    r.depth++;
    walk(parsed.root, scope, r, undefined);
    r.depth--;
  } finally {
    parsed.free();
  }
}

export function walk(node: Node, scope: Scope, r: Reading, stdin: Stdin, level = 0): void {
  if (level > 400) {
    r.findings.push({ kind: "unknown", reason: "nested too deeply to read" });
    return;
  }
  const next = level + 1;
  switch (node.type) {
    case "comment":
    case "heredoc_start":
    case "heredoc_end":
      return;
    case "command":
      command(node, scope, r, stdin, next);
      return;
    case "redirected_statement":
      redirected(node, scope, r, stdin, next);
      return;
    case "pipeline":
      pipeline(node, scope, r, stdin, next);
      return;
    case "for_statement":
      forLoop(node, scope, r, next);
      return;
    case "subshell":
    case "command_substitution":
    case "process_substitution": {
      const inner = copyScope(scope);
      for (const c of named(node)) walk(c, inner, r, undefined, next);
      return;
    }
    case "variable_assignment":
      assign(node, scope, r, next);
      return;
    case "heredoc_body":
      // Its text is data; only the substitutions in an unquoted one run.
      for (const c of named(node)) if (c.type !== "heredoc_content") walk(c, scope, r, undefined, next);
      return;
    default:
      for (const c of named(node)) walk(c, scope, r, stdin, next);
  }
}

/** `for x in a b; do …; done`: the body read once per listed value (a few), with x set to it. */
function forLoop(node: Node, scope: Scope, r: Reading, level: number): void {
  const name = node.childForFieldName("variable")?.text;
  const values = node.childrenForFieldName("value").filter((c): c is Node => c !== null);
  const body = node.childForFieldName("body");
  for (const v of values) walk(v, copyScope(scope), r, undefined, level);
  if (!body) return;
  const words = values.map((v) => wordOf(v, scope.vars));
  const known = name && words.length > 0 && words.length <= 8 && words.every((w) => !w.dynamic && !w.glob);
  if (!known || !name) {
    const inner = copyScope(scope);
    if (name) inner.vars.delete(name);
    walk(body, inner, r, undefined, level);
    return;
  }
  for (const w of words)
    walk(body, { cwd: scope.cwd, vars: new Map(scope.vars).set(name, w.value) }, r, undefined, level);
}

function assign(node: Node, scope: Scope, r: Reading, level: number): void {
  const name = node.childForFieldName("name")?.text;
  const value = node.childForFieldName("value");
  if (value) walk(value, copyScope(scope), r, undefined, level);
  if (!name) return;
  const w = value ? wordOf(value, scope.vars) : undefined;
  if (!value) scope.vars.set(name, "");
  else if (w && !w.dynamic && !w.glob) scope.vars.set(name, w.value);
  else scope.vars.delete(name);
}

function command(node: Node, scope: Scope, r: Reading, stdin: Stdin, level: number): void {
  const env = new Map<string, string>();
  const words: Word[] = [];
  for (const c of named(node)) {
    if (c.type === "variable_assignment") {
      const v = c.childForFieldName("value");
      if (v) walk(v, copyScope(scope), r, undefined, level);
      const n = c.childForFieldName("name")?.text;
      if (n) env.set(n, v ? wordOf(v, scope.vars).value : "");
      continue;
    }
    if (c.type === "file_redirect" || c.type === "heredoc_redirect" || c.type === "herestring_redirect") {
      redirection(c, scope, r, undefined, level);
      continue;
    }
    // $(…) inside a word runs first, where the command runs.
    walk(c, copyScope(scope), r, undefined, level);
    words.push(wordOf(c, scope.vars));
  }
  if (words.length > 0) r.judge(words, env, scope, r, stdin);
}

function heredocText(node: Node): string | undefined {
  const body = named(node).find((c) => c.type === "heredoc_body");
  return body?.text;
}

function redirection(c: Node, scope: Scope, r: Reading, heredoc: string | undefined, level: number): void {
  if (c.type === "heredoc_redirect") {
    for (const k of named(c)) walk(k, scope, r, undefined, level);
    return;
  }
  if (c.type === "herestring_redirect") {
    for (const k of named(c)) walk(k, copyScope(scope), r, undefined, level);
    return;
  }
  const dest = c.childForFieldName("destination");
  if (!dest) return;
  walk(dest, copyScope(scope), r, undefined, level);
  const op = c.children.find((k) => k !== null && !k.isNamed)?.text ?? ">";
  r.redirect(wordOf(dest, scope.vars), op, scope, r, heredoc);
}

function redirected(node: Node, scope: Scope, r: Reading, stdin: Stdin, level: number): void {
  const body = node.childForFieldName("body");
  const redirects = named(node).filter((c) => c !== body);
  const heredocNode = redirects.find((c) => c.type === "heredoc_redirect");
  const heredoc = heredocNode ? heredocText(heredocNode) : undefined;
  for (const c of redirects) {
    if (c.type === "heredoc_redirect") {
      // `cat <<EOF | sh`: the pipeline after the here-doc's start reads its text.
      for (const k of named(c)) {
        if (k.type === "heredoc_body") walk(k, scope, r, undefined, level);
        else if (k.type !== "heredoc_start" && k.type !== "heredoc_end")
          walk(k, copyScope(scope), r, heredoc !== undefined ? { script: heredoc } : undefined, level);
      }
    } else redirection(c, scope, r, heredoc, level);
  }
  if (body) walk(body, scope, r, heredoc !== undefined ? { script: heredoc } : stdin, level);
}

/** The program a pipeline stage runs (its first word, as written), for download detection. */
function stageProgram(node: Node): string | undefined {
  const cmd =
    node.type === "command"
      ? node
      : node.type === "redirected_statement"
        ? node.childForFieldName("body")
        : null;
  const name = cmd?.type === "command" ? cmd.childForFieldName("name") : null;
  return name ? wordOf(name, new Map()).value : undefined;
}

function pipeline(node: Node, scope: Scope, r: Reading, stdin: Stdin, level: number): void {
  let downloaded = false;
  let input = stdin;
  for (const stage of named(node)) {
    // Each stage runs in its own subshell.
    walk(stage, copyScope(scope), r, downloaded ? { download: true } : input, level);
    input = undefined;
    if (downloads(stageProgram(stage))) downloaded = true;
  }
}

/** The script file a shell or interpreter is asked to run, when this command wrote it from a here-doc. */
export function writtenScript(w: Word | undefined, scope: Scope, r: Reading): string | undefined {
  if (!w || w.dynamic || scope.cwd === undefined) return undefined;
  return r.written.get(realish(absolute(tildeWord(w, r.place.home), scope.cwd, r.place.home), true));
}
