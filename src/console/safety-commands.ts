// The safety net's slash commands: /undo, /redo, /rewind, /fork and /export. The work is done by the
// safety core (src/safety); this file asks the user (pickers, the confirmation before files changed by
// hand are overwritten) and says what happened.
import type { ConfirmOverwrite, RewindMode, RewindOutcome } from "../agent/agent-session.ts";
import { errorMessage } from "../contract/errors.ts";
import type { ParsedCommand } from "./commands.ts";
import type { SlashContext, SlashOutcome } from "./slash.ts";

const DONE: SlashOutcome = { kind: "done" };

/** Whether files changed by hand may be overwritten: asked with a picker, refused where none can be drawn. */
function confirmer(ctx: SlashContext, force: boolean): ConfirmOverwrite {
  const { ui } = ctx;
  return async (paths) => {
    const shown = paths.slice(0, 8).map((p) => ui.clean(p));
    const more = paths.length > shown.length ? ` and ${paths.length - shown.length} more` : "";
    ui.print(
      ui.yellow(`changed since the checkpoint (by hand or by another program): ${shown.join(", ")}${more}`),
    );
    if (force) return true;
    if (!ctx.pick) {
      ui.print(ui.dim("add --yes to the command to overwrite them"));
      return false;
    }
    const i = await ctx.pick({
      title: `overwrite ${paths.length === 1 ? "this file" : `these ${paths.length} files`} with the checkpoint?`,
      action: "choose",
      rows: [
        { label: "no, keep them and change nothing", detail: "" },
        { label: "yes, overwrite them", detail: "" },
      ],
      initial: 0,
    });
    return i === 1;
  };
}

function report(ctx: SlashContext, out: RewindOutcome, what: string): SlashOutcome {
  const { ui } = ctx;
  for (const l of out.lines) ui.print(ui.dim(`  ${ui.clean(l)}`));
  if (out.done) ui.print(ui.dim(`── ${what} ──`));
  return out.draft !== undefined ? { kind: "done", draft: out.draft } : DONE;
}

const MODES: Record<string, RewindMode> = { code: "code", conversation: "conversation", both: "both" };

function clock(ts: string | undefined): string {
  if (!ts) return "";
  const d = new Date(ts);
  const p = (n: number) => String(n).padStart(2, "0");
  return Number.isNaN(d.getTime()) ? "" : `${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** The picker rows of the user's messages: title, time, files changed. */
function messageRows(ctx: SlashContext) {
  const rows = ctx.session.turns();
  return {
    rows,
    pick: rows.map((r, i) => ({
      label: `${i + 1}. ${r.title}`,
      detail: `${clock(r.ts)} · ${r.files === 0 ? "no files changed" : `${r.files} file${r.files === 1 ? "" : "s"} changed`}`,
    })),
  };
}

async function rewind(cmd: ParsedCommand, ctx: SlashContext): Promise<SlashOutcome> {
  const { ui } = ctx;
  const words = cmd.args.split(/\s+/).filter((w) => w !== "");
  const force = words.includes("--yes");
  const { rows, pick } = messageRows(ctx);
  if (rows.length === 0) {
    ui.print(ui.dim("nothing to rewind: no message of yours in this conversation"));
    return DONE;
  }
  const num = words.find((w) => /^\d+$/.test(w));
  let mode = words.map((w) => MODES[w]).find((m) => m !== undefined);
  let chosen: number | undefined;
  if (num !== undefined) {
    chosen = Number(num) - 1;
    if (!rows[chosen]) {
      ui.print(
        ui.red(`✗ /rewind: there is no message ${num}; this conversation has ${rows.length} of yours`),
      );
      return DONE;
    }
  } else if (ctx.pick) {
    chosen = await ctx.pick({
      title: "rewind to before which of your messages?",
      action: "rewind",
      rows: pick,
      initial: rows.length - 1,
    });
  } else {
    ui.print(ui.bold("your messages:"), ...pick.map((r) => `  ${ui.clean(r.label)}  ${ui.dim(r.detail)}`));
    ui.print(ui.dim("rewind with /rewind N [code|conversation]"));
    return DONE;
  }
  const row = chosen === undefined ? undefined : rows[chosen];
  if (!row) {
    ui.print(ui.dim("nothing rewound"));
    return DONE;
  }
  if (!mode && ctx.pick && num === undefined) {
    const options: RewindMode[] = ["both", "code", "conversation"];
    const i = await ctx.pick({
      title: `restore to before "${row.title.slice(0, 50)}":`,
      action: "restore",
      rows: [
        { label: "code and conversation", detail: "" },
        { label: "code only", detail: "the conversation stays" },
        { label: "conversation only", detail: "the files stay" },
      ],
    });
    mode = i === undefined ? undefined : options[i];
    if (!mode) {
      ui.print(ui.dim("nothing rewound"));
      return DONE;
    }
  }
  const m = mode ?? "both";
  const out = await ctx.session.rewind(chosen as number, m, confirmer(ctx, force));
  return report(
    ctx,
    out,
    `rewound (${m === "both" ? "code and conversation" : `${m} only`}) to before message ${(chosen ?? 0) + 1}; /undo takes it back`,
  );
}

async function fork(cmd: ParsedCommand, ctx: SlashContext): Promise<SlashOutcome> {
  const { ui, session } = ctx;
  const { rows, pick } = messageRows(ctx);
  let turn: number | undefined;
  if (cmd.args !== "") {
    const n = Number(cmd.args);
    if (!Number.isInteger(n) || !rows[n - 1]) {
      ui.print(
        ui.red(
          `✗ /fork: "${ui.clean(cmd.args)}" is not one of your ${rows.length} messages; /fork N, or /fork alone`,
        ),
      );
      return DONE;
    }
    turn = n - 1;
  } else if (ctx.pick && rows.length > 0) {
    const i = await ctx.pick({
      title: "fork from where?",
      action: "fork",
      rows: [
        { label: "now: the whole conversation", detail: "" },
        ...pick.map((r) => ({ ...r, label: `before ${r.label}` })),
      ],
    });
    if (i === undefined) {
      ui.print(ui.dim("no fork made"));
      return DONE;
    }
    turn = i === 0 ? undefined : i - 1;
  }
  const here = session.id;
  const made = session.fork(turn);
  ui.print(
    ui.dim(
      `forked: session ${made.id} with ${made.messages} messages; ${here} stays as it is (/resume it any time)`,
    ),
  );
  return { kind: "switch", resume: made.id };
}

async function exportTo(cmd: ParsedCommand, ctx: SlashContext): Promise<SlashOutcome> {
  const { ui } = ctx;
  try {
    const file = await ctx.session.exportTo(cmd.args || undefined);
    ui.print(ui.dim(`exported the conversation to ${ui.clean(file)}`));
  } catch (err) {
    ui.print(ui.red(`✗ /export: ${ui.clean(errorMessage(err))}`));
  }
  return DONE;
}

/** Run a safety command; undefined when `name` is not one. */
export async function runSafetySlash(
  cmd: ParsedCommand,
  ctx: SlashContext,
): Promise<SlashOutcome | undefined> {
  const force = cmd.args.split(/\s+/).includes("--yes");
  switch (cmd.name) {
    case "undo":
      return report(ctx, await ctx.session.undo(confirmer(ctx, force)), "undone; /redo brings it back");
    case "redo":
      return report(ctx, await ctx.session.redo(confirmer(ctx, force)), "redone");
    case "rewind":
      return rewind(cmd, ctx);
    case "fork":
      return fork(cmd, ctx);
    case "export":
      return exportTo(cmd, ctx);
    default:
      return undefined;
  }
}
