// `apply_patch`: add, update, move and delete files with one patch in codex's format, the tool GPT-5
// and codex models are trained on (offered to them instead of edit and write). Every file of the patch is
// read (an editor's unsaved buffer when it holds the file), matched and computed first; the user approves
// each change with its diff; only then is anything written, each file atomically, and the editor is handed
// what was written. A patch that does not apply writes nothing.
import { lstatSync, unlinkSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { z } from "zod";
import { changingTool } from "./changing-tool.ts";
import { writeConfined } from "./confined-fs.ts";
import { diffFiles } from "./diff.ts";
import { splitFile } from "./edit/lines.ts";
import { snippetLines } from "./edit/snippet.ts";
import { bufferFile, readTextFile } from "./edit.ts";
import { applyHunks } from "./patch/hunks.ts";
import { type FileOp, parsePatch } from "./patch/parse.ts";
import { isInside, realpathLoose, toolPath } from "./paths.ts";
import { ToolError } from "./tool-error.ts";
import type { CoreTool, ToolContext } from "./types.ts";
import { existingFileMode } from "./write.ts";

const ApplyPatchInput = z.strictObject({
  input: z.string().describe("the whole patch, from *** Begin Patch to *** End Patch"),
});

interface Planned {
  op: FileOp["kind"];
  /** shown paths: the file, and where it moves */
  shown: string;
  movedTo?: string;
  real: string;
  confine?: string;
  /** the new file's real path when it moves */
  target?: { real: string; confine?: string };
  before: string;
  after: string;
  mode: number;
  spans: { first: number; last: number }[];
  fuzzy: boolean;
}

const lineCount = (s: string) => (s === "" ? 0 : s.split("\n").length - (s.endsWith("\n") ? 1 : 0));

function mustNotExist(real: string, shown: string, what: string): void {
  if (existingFileMode(real, shown) !== undefined)
    throw new ToolError(`${what} ${shown}: it already exists; change it with *** Update File instead`);
}

/** The text to patch: the editor's buffer when it holds the file (unsaved changes included), else the disk's. */
async function fileToPatch(real: string, shown: string, ctx: ToolContext, confine: string | undefined) {
  return (await bufferFile(real, shown, ctx)) ?? readTextFile(real, shown, ctx, confine);
}

async function plan(op: FileOp, ctx: ToolContext): Promise<Planned> {
  const { real, shown, confine } = toolPath(ctx, op.path);
  const at = { real, shown, ...(confine ? { confine } : {}) };
  if (op.kind === "add") {
    mustNotExist(real, shown, "cannot add");
    const after = op.lines.length ? `${op.lines.join("\n")}\n` : "";
    return {
      op: "add",
      ...at,
      before: "",
      after,
      mode: 0o644,
      spans: [{ first: 1, last: op.lines.length }],
      fuzzy: false,
    };
  }
  if (op.kind === "delete") {
    // A symbolic link is removed itself, not the file it points to.
    const lexical = resolve(ctx.workspace, op.path);
    if (isLink(lexical) && (!confine || isInside(confine, realpathLoose(dirname(lexical))))) {
      const name = relative(ctx.workspace, lexical);
      return {
        op: "delete",
        real: lexical,
        shown: name,
        before: "",
        after: "",
        mode: 0,
        spans: [],
        fuzzy: false,
      };
    }
    const file = await fileToPatch(real, shown, ctx, confine);
    return { op: "delete", ...at, before: file.text, after: "", mode: file.mode, spans: [], fuzzy: false };
  }
  const file = await fileToPatch(real, shown, ctx, confine);
  const patched = op.chunks.length ? applyHunks(splitFile(file.text), shown, op.chunks) : undefined;
  const p: Planned = {
    op: "update",
    ...at,
    before: file.text,
    after: patched?.text ?? file.text,
    mode: file.mode,
    spans: patched?.spans ?? [],
    fuzzy: patched?.fuzzy ?? false,
  };
  if (op.moveTo !== undefined) {
    const to = toolPath(ctx, op.moveTo);
    if (to.real !== real) mustNotExist(to.real, to.shown, "cannot move to");
    p.movedTo = to.shown;
    p.target = { real: to.real, ...(to.confine ? { confine: to.confine } : {}) };
  }
  return p;
}

function describe(p: Planned): string {
  if (p.op === "add") return `add ${p.shown} (${lineCount(p.after)} lines)`;
  if (p.op === "delete") return `delete ${p.shown}`;
  const move = p.movedTo ? ` → ${p.movedTo}` : "";
  return `update ${p.shown}${move} (${p.spans.length} hunk${p.spans.length === 1 ? "" : "s"})`;
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

export const applyPatchTool: CoreTool<typeof ApplyPatchInput> = changingTool({
  name: "apply_patch",
  description: [
    "Add, update, move or delete files with a patch. Format:",
    "*** Begin Patch",
    "*** Add File: path/new.ts      (then every line of the file, each starting with +)",
    "*** Update File: path/old.ts   (optionally followed by *** Move to: path/renamed.ts)",
    "@@ a line the hunk comes after, e.g. function foo() {   (optional)",
    " unchanged context line (3 before and after each change)",
    "-removed line",
    "+added line",
    "*** Delete File: path/gone.ts",
    "*** End Patch",
    "Paths are relative to the workspace. Copy context and removed lines exactly from the file. All changes apply or none.",
  ].join("\n"),
  input: ApplyPatchInput,
  async prepare(args, ctx) {
    const ops = parsePatch(args.input);
    const seen = new Set<string>();
    const plans: Planned[] = [];
    for (const op of ops) {
      const p = await plan(op, ctx);
      for (const r of [p.real, p.target?.real]) {
        if (r === undefined) continue;
        if (seen.has(r))
          throw new ToolError(`the patch changes ${p.shown} twice; put all its changes in one section`);
        seen.add(r);
      }
      plans.push(p);
    }
    // One question for the whole patch, asked once every file is known to apply: all of it or nothing.
    const shownDiff = plans.find((p) => p.before !== p.after) ?? plans[0];
    const more =
      plans.length > 1 && shownDiff ? ` — the diff shown is ${shownDiff.movedTo ?? shownDiff.shown}'s` : "";
    const request = {
      tool: plans.every((p) => p.op === "add") ? ("write" as const) : ("edit" as const),
      summary: `apply_patch: ${plans.map(describe).join("; ")}${more}`,
      diff: () =>
        shownDiff
          ? { path: shownDiff.movedTo ?? shownDiff.shown, diff: diffFiles(shownDiff.before, shownDiff.after) }
          : undefined,
    };
    return { change: { request }, apply: async () => applyPlans(plans, ctx) };
  },
});

async function applyPlans(plans: Planned[], ctx: ToolContext) {
  const done: string[] = [];
  for (const p of plans) {
    try {
      if (p.op === "delete") unlinkSync(p.real);
      else if (p.target) {
        writeConfined(p.target.real, p.after, p.mode, p.target.confine, p.movedTo ?? p.shown);
        if (p.target.real !== p.real) unlinkSync(p.real);
        ctx.files?.record(p.target.real);
        await ctx.editor?.written(p.target.real, p.after);
      } else {
        writeConfined(p.real, p.after, p.mode, p.confine, p.shown);
        ctx.files?.record(p.real);
        await ctx.editor?.written(p.real, p.after);
      }
    } catch (err) {
      const why = err instanceof ToolError ? err.message : (err as Error).message;
      const applied = done.length ? `; already applied: ${done.join(", ")}` : "; nothing was applied";
      throw new ToolError(`cannot ${describe(p)}: ${why}${applied}`);
    }
    done.push(describe(p));
    ctx.report?.({ kind: "diff", path: p.movedTo ?? p.shown, diff: diffFiles(p.before, p.after) });
  }
  const parts = plans.map((p) => {
    const head = `${p.op === "add" ? "Added" : p.op === "delete" ? "Deleted" : "Updated"} ${p.shown}${p.movedTo ? ` → ${p.movedTo}` : ""}`;
    const note = p.fuzzy ? " [some context matched only when whitespace or punctuation is ignored]" : "";
    const body = p.op === "update" && p.spans.length ? `\n${snippetLines(p.after, p.spans)}` : "";
    return `${head}${note}${body}`;
  });
  return { content: parts.join("\n"), is_error: false };
}
