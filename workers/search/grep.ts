// The `grep` tool: a regular expression over the workspace's files, `path:line: text` per match (context
// lines `path-line- text`, groups apart separated by `--`), or only the names of the files that match.
import { statSync } from "node:fs";
import type { z } from "zod";
import type { ToolResult } from "../../src/contract/protocol.ts";
import type { GrepInput } from "../../src/contract/registry.ts";
import { loadIgnore } from "../../src/lib/gitignore.ts";
import { toolError, toolText } from "../sdk/module.ts";
import { clipLine } from "../sdk/text-limits.ts";
import { resolveInWorkspace } from "../sdk/workspace-path.ts";
import { compilePathGlob } from "./glob-under.ts";
import { compilePattern } from "./pattern.ts";
import { isLiteralPattern, type LineHit, MAX_SCAN_LINE_CHARS, scanFile } from "./scan-file.ts";
import { walkFiles, workspaceRel } from "./walk.ts";

export const DEFAULT_GREP_RESULTS = 200;
export const MAX_LINE_CHARS = 300;
/** Whole-result bound, whatever max_results says. */
export const MAX_GREP_OUTPUT_CHARS = 100_000;
/** Stop searching (and say so) well before the host's 15 s request deadline. */
export const SEARCH_TIME_BUDGET_MS = 10_000;

type GrepArgs = z.infer<typeof GrepInput>;

export function grep(workspace: string, args: GrepArgs): ToolResult {
  const pattern = compilePattern(args.pattern, args.ignore_case === true);
  if (!pattern.ok) return toolError(`grep: ${pattern.error}`);
  const re = pattern.re;
  const where = resolveInWorkspace(workspace, args.path);
  if (!where.ok) return toolError(`grep: ${where.reason}`);
  const startRel = workspaceRel(where.realRoot, where.real);
  const glob = args.glob ? compilePathGlob(args.glob, startRel) : undefined;
  if (glob && !glob.ok) return toolError(`grep: invalid glob: ${glob.error}`);

  const literal = isLiteralPattern(pattern.source);
  const max = args.max_results ?? DEFAULT_GREP_RESULTS;
  const around = args.files_only ? 0 : (args.context ?? 0);
  const deadline = Date.now() + SEARCH_TIME_BUDGET_MS;
  const out: string[] = [];
  let matches = 0;
  let size = 0;
  let stop: string | undefined;
  const add = (entry: string): boolean => {
    if (size + entry.length > MAX_GREP_OUTPUT_CHARS) {
      stop = `[output capped at ${MAX_GREP_OUTPUT_CHARS} characters; narrow the pattern, path or glob]`;
      return false;
    }
    out.push(entry);
    size += entry.length + 1;
    return true;
  };
  const capped = () => {
    stop = `[results capped at ${max}; there may be more: narrow the pattern, path or glob]`;
    return false;
  };

  const longIn: string[] = [];
  const timedOut = `[search stopped after ${SEARCH_TIME_BUDGET_MS / 1000} s; results are partial: narrow the path or glob]`;
  const scan = (abs: string, rel: string) => {
    let last = 0; // the last line shown of this file, so context never repeats and gaps get a `--`
    const show = (sep: string) => (hit: LineHit) => {
      if (hit.line <= last) return true;
      if (around > 0 && out.length > 0 && (last === 0 || hit.line > last + 1)) add("--");
      last = hit.line;
      return add(`${rel}${sep}${hit.line}${sep} ${clipLine(hit.text, MAX_LINE_CHARS)}`);
    };
    const onMatch = args.files_only
      ? () => {
          // One line per file; the rest of the file need not be read.
          if (!add(rel)) return false;
          if (++matches >= max) capped();
          return false;
        }
      : (hit: LineHit) => {
          if (!show(":")(hit)) return false;
          return ++matches < max || capped();
        };
    const context = show("-");
    const r = scanFile(abs, re, onMatch, {
      literal,
      root: where.realRoot,
      deadline,
      ...(around > 0 ? { context: around, onContext: (h: LineHit) => void context(h) } : {}),
    });
    if (r.longLines > 0) longIn.push(rel);
    if (r.status === "timeout") stop = timedOut;
    return r.status;
  };
  if (statSync(where.real).isFile()) {
    if (scan(where.real, startRel) === "binary") return toolText(`${startRel} is a binary file`);
  } else {
    const files = walkFiles(startRel, {
      realRoot: where.realRoot,
      ignored: loadIgnore(where.realRoot),
      ...(args.hidden ? { hidden: true } : {}),
      shouldStop: () => stop !== undefined || Date.now() > deadline,
    });
    for (const f of files) {
      if (glob?.ok && !glob.match(f.rel)) continue;
      scan(f.abs, f.rel);
      if (stop !== undefined) break;
      if (Date.now() > deadline) {
        stop = timedOut;
        break;
      }
    }
  }
  if (out.length === 0 && stop === undefined) out.push(args.files_only ? "no files match" : "no matches");
  if (longIn.length > 0) {
    const files =
      longIn.length > 3
        ? `${longIn.slice(0, 3).join(", ")} and ${longIn.length - 3} more`
        : longIn.join(", ");
    out.push(
      `[lines longer than ${MAX_SCAN_LINE_CHARS} characters were searched only in their first ${MAX_SCAN_LINE_CHARS} (${files})]`,
    );
  }
  if (stop !== undefined) out.push(stop);
  return toolText(out.join("\n"));
}
