// A temporary workspace (and a sibling directory outside it) for core tool tests.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCoreTool } from "../../src/tools/index.ts";
import type { ToolContext } from "../../src/tools/types.ts";

export interface Sandbox {
  root: string;
  workspace: string;
  outside: string;
  cleanup(): void;
}

export function makeSandbox(): Sandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "i-tools-")));
  const workspace = join(root, "ws");
  const outside = join(root, "outside");
  mkdirSync(workspace);
  mkdirSync(outside);
  return { root, workspace, outside, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Run a core tool with object arguments; returns the text content (first text part for images). */
export async function run(name: string, args: unknown, ctx: ToolContext) {
  const r = await runCoreTool(name, JSON.stringify(args), ctx);
  const text =
    typeof r.content === "string"
      ? r.content
      : r.content.map((p) => (p.type === "text" ? p.text : "")).join("");
  return { ...r, text };
}
