// The `grep` tool: a regular expression over the workspace's files, `path:line: text` per match.
import { statSync } from "node:fs";
import type { z } from "zod";
import type { ToolResult } from "../../src/contract/protocol.ts";
import type { GrepInput } from "../../src/contract/registry.ts";
import { loadIgnore } from "../../src/lib/gitignore.ts";
import { compileGlob, type PathMatcher } from "../../src/lib/glob.ts";
import { toolError, toolText } from "../sdk/module.ts";
import { clipLine } from "../sdk/text-limits.ts";
import { resolveInWorkspace } from "../sdk/workspace-path.ts";
import { isLiteralPattern, MAX_SCAN_LINE_CHARS, scanFile } from "./scan-file.ts";
import { walkFiles, workspaceRel } from "./walk.ts";

export const DEFAULT_GREP_RESULTS = 200;
export const MAX_LINE_CHARS = 300;
/** Whole-result bound, whatever max_results says. */
export const MAX_GREP_OUTPUT_CHARS = 100_000;
/** Stop searching (and say so) well before the host's 15 s request deadline. */
export const SEARCH_TIME_BUDGET_MS = 10_000;

type GrepArgs = z.infer<typeof GrepInput>;

export function grep(workspace: string, args: GrepArgs): ToolResult {
  let re: RegExp;
  try {
    re = new RegExp(args.pattern, args.ignore_case ? "i" : "");
  } catch (err) {
    return toolError(`grep: invalid regular expression: ${(err as Error).message}`);
  }
  let globMatch: PathMatcher | undefined;
  try {
    globMatch = args.glob ? compileGlob(args.glob) : undefined;
  } catch (err) {
    return toolError(`grep: invalid glob: ${(err as Error).message}`);
  }
  const where = resolveInWorkspace(workspace, args.path);
  if (!where.ok) return toolError(`grep: ${where.reason}`);

  const literal = isLiteralPattern(args.pattern);
  const max = args.max_results ?? DEFAULT_GREP_RESULTS;
  const deadline = Date.now() + SEARCH_TIME_BUDGET_MS;
  const out: string[] = [];
  let size = 0;
  let stop: string | undefined;
  const onHit = (rel: string) => (hit: { line: number; text: string }) => {
    const entry = `${rel}:${hit.line}: ${clipLine(hit.text, MAX_LINE_CHARS)}`;
    if (size + entry.length > MAX_GREP_OUTPUT_CHARS) {
      stop = `[output capped at ${MAX_GREP_OUTPUT_CHARS} characters; narrow the pattern, path or glob]`;
      return false;
    }
    out.push(entry);
    size += entry.length + 1;
    if (out.length >= max) {
      stop = `[results capped at ${max}; there may be more: narrow the pattern, path or glob]`;
      return false;
    }
    return true;
  };

  const startRel = workspaceRel(where.realRoot, where.real);
  const scanOpts = { literal, root: where.realRoot, deadline };
  const timedOut = `[search stopped after ${SEARCH_TIME_BUDGET_MS / 1000} s; results are partial: narrow the path or glob]`;
  const longIn: string[] = [];
  const scan = (abs: string, rel: string) => {
    const r = scanFile(abs, re, onHit(rel), scanOpts);
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
      shouldStop: () => stop !== undefined || Date.now() > deadline,
    });
    for (const f of files) {
      if (globMatch && !globMatch(f.rel)) continue;
      const status = scan(f.abs, f.rel);
      if (status === "stopped" || status === "timeout") break;
      if (Date.now() > deadline) {
        stop = timedOut;
        break;
      }
    }
  }
  if (out.length === 0 && stop === undefined) out.push("no matches");
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
