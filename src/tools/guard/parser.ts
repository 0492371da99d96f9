// The shell parser the guard reads commands with: tree-sitter's bash grammar on web-tree-sitter (WASM).
// Loaded on the first bash call that is classified, never at the core's start (about 60 ms, once);
// a parse then takes tens of microseconds. Both WASM files come from their npm packages.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Node, Parser as TsParser } from "web-tree-sitter";
import { runtimeName } from "../../runtime/runtime.ts";

export type { Node };

export interface ParsedCommand {
  root: Node;
  /** the tree has ERROR or MISSING nodes: the shell may read it otherwise */
  hasError: boolean;
  /** frees the tree (WASM memory is not garbage-collected) */
  free(): void;
}

let loading: Promise<TsParser> | undefined;

/** Where the two WASM files are: embedded in a compiled executable (Bun), else in node_modules. */
async function wasmFiles(): Promise<{ runtime: string; bash: string }> {
  if (runtimeName === "bun") return (await import("../../runtime/guard-wasm.ts")).GUARD_WASM;
  const require = createRequire(import.meta.url);
  return {
    runtime: require.resolve("web-tree-sitter/web-tree-sitter.wasm"),
    bash: require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"),
  };
}

/**
 * web-tree-sitter's loader turns its own module URL into a file path when it sees Node's API. Inside a
 * compiled Windows executable that URL names the embedded filesystem, which is no absolute path, and the
 * conversion throws. The loader needs no path here (both WASM files are handed over as bytes), so on
 * Windows it is made to skip that step for the one call: `process.type = "renderer"` is how it is told
 * that it does not run under Node, the same switch Electron's renderers use.
 */
async function initWithoutScriptPath(init: () => Promise<void>): Promise<void> {
  if (process.platform !== "win32") return init();
  const proc = process as { type?: string };
  const before = proc.type;
  proc.type = "renderer";
  try {
    await init();
  } finally {
    proc.type = before;
  }
}

async function load(): Promise<TsParser> {
  const files = await wasmFiles();
  const { Parser, Language } = await import("web-tree-sitter");
  await initWithoutScriptPath(() => Parser.init({ wasmBinary: readFileSync(files.runtime) }));
  const grammar = readFileSync(files.bash);
  const bash = await Language.load(grammar);
  const parser = new Parser();
  parser.setLanguage(bash);
  return parser;
}

/** The parser, loaded once (a failed load is retried on the next call, not remembered). */
export function bashParser(): Promise<TsParser> {
  loading ??= load().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

/** `text` parsed as bash; undefined when the parser gave up (it returns no tree). */
export function parseWith(parser: TsParser, text: string): ParsedCommand | undefined {
  const tree = parser.parse(text);
  if (!tree) return undefined;
  return { root: tree.rootNode, hasError: tree.rootNode.hasError, free: () => tree.delete() };
}
