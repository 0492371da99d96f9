// The `find` tool: workspace files whose path (relative to the directory searched) matches a glob, sorted,
// capped.
import { statSync } from "node:fs";
import type { z } from "zod";
import type { ToolResult } from "../../src/contract/protocol.ts";
import type { FindInput } from "../../src/contract/registry.ts";
import { loadIgnore } from "../../src/lib/gitignore.ts";
import { toolError, toolText } from "../sdk/module.ts";
import { resolveInWorkspace } from "../sdk/workspace-path.ts";
import { compilePathGlob } from "./glob-under.ts";
import { SEARCH_TIME_BUDGET_MS } from "./grep.ts";
import { walkFiles, workspaceRel } from "./walk.ts";

export const DEFAULT_FIND_RESULTS = 500;

type FindArgs = z.infer<typeof FindInput>;

export function find(workspace: string, args: FindArgs): ToolResult {
  const where = resolveInWorkspace(workspace, args.path);
  if (!where.ok) return toolError(`find: ${where.reason}`);
  if (!statSync(where.real).isDirectory()) return toolError(`find: path "${args.path}" is not a directory`);
  const startRel = workspaceRel(where.realRoot, where.real);
  const glob = compilePathGlob(args.pattern, startRel);
  if (!glob.ok) return toolError(`find: invalid glob: ${glob.error}`);
  const match = glob.match;

  const max = args.max_results ?? DEFAULT_FIND_RESULTS;
  const deadline = Date.now() + SEARCH_TIME_BUDGET_MS;
  let timedOut = false;
  const found: string[] = [];
  let more = false;
  const files = walkFiles(startRel, {
    realRoot: where.realRoot,
    ignored: loadIgnore(where.realRoot),
    ...(args.hidden ? { hidden: true } : {}),
    shouldStop: () => {
      timedOut = Date.now() > deadline;
      return timedOut;
    },
  });
  for (const f of files) {
    if (!match(f.rel)) continue;
    if (found.length >= max) {
      more = true;
      break;
    }
    found.push(f.rel);
  }
  // walkFiles already yields in path order; the result is sorted as it is.
  if (found.length === 0)
    return toolText(timedOut ? "no files found before the time limit" : "no files found");
  if (more) found.push(`[results capped at ${max}; narrow the pattern or path to see the rest]`);
  else if (timedOut)
    found.push(`[search stopped after ${SEARCH_TIME_BUDGET_MS / 1000} s; results are partial]`);
  return toolText(found.join("\n"));
}
