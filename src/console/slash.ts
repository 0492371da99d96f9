// What each built-in slash command does. Handlers print through the console's UI and return what the
// console loop must do next (nothing, exit, switch sessions, or send a message to the model).
import {
  type AgentSession,
  APPROVAL_LABELS,
  type ApprovalPolicy,
  type SessionMeta,
  savedSessions,
} from "../agent/agent-session.ts";
import { errorMessage } from "../contract/errors.ts";
import { expandTemplate } from "../lib/prompt-template.ts";
import { truncate, visibleWidth } from "../terminal/width.ts";
import type { CommandRegistry, ParsedCommand } from "./commands.ts";
import { showCompactions, uncompactCommand } from "./compaction-commands.ts";
import { costLines } from "./cost-command.ts";
import { runFeatureCommand } from "./feature-commands.ts";
import type { PickRequest, PickRow } from "./input/picker.ts";
import { mcpCommand, mcpPromptText } from "./mcp-command.ts";
import type { ConsoleUi } from "./ports.ts";
import { age, sessionPickRequest } from "./session-picker.ts";

export type SlashOutcome =
  /** draft: text to put in the input box (the message an /undo took back) */
  | { kind: "done"; draft?: string }
  | { kind: "exit" }
  /** a fresh session (resume absent) or this saved one; clear: wipe the screen first */
  | { kind: "switch"; resume?: string; clear?: boolean }
  /** model: the template's own, for this message only */
  | { kind: "send"; text: string; model?: string };

export interface SlashContext {
  session: AgentSession;
  ui: ConsoleUi;
  registry: CommandRegistry;
  /** choose one row from a list, when the input can show one (the live prompt) */
  pick?: (req: PickRequest) => Promise<number | undefined>;
  /** search the transcript (the live prompt); false when nothing matches */
  find?: (query: string) => boolean;
}

const DONE: SlashOutcome = { kind: "done" };

const THIS_ONE = " (this one)";

/** The /resume list's rows: title (this session marked), then age, size and id. */
export function sessionRows(list: SessionMeta[], current: string): PickRow[] {
  return list.map((m) => ({
    label: `${m.title ?? "(untitled)"}${m.id === current ? THIS_ONE : ""}`,
    detail: `${age(m.updated)} · ${m.messages} messages · ${m.id}`,
  }));
}

/**
 * The rows as numbered lines (/sessions, and /resume where the picker cannot be drawn). Too wide for one
 * line, a row puts its age, size and id on a second, indented line (a long title cut to fit), so the id
 * — what /resume ID takes — is never broken across lines.
 */
export function pickerLines(list: SessionMeta[], current: string, ui: ConsoleUi): string[] {
  const width = ui.width();
  return sessionRows(list, current).flatMap((r, i) => {
    const mine = list[i]?.id === current;
    const title = ui.clean(mine ? r.label.slice(0, -THIS_ONE.length) : r.label);
    const mark = mine ? THIS_ONE : "";
    const detail = ui.clean(r.detail);
    const num = `${String(i + 1).padStart(3)}. `;
    if (visibleWidth(`${num}${title}${mark}  ${detail}`) <= width)
      return [`${num}${title}${mark}  ${ui.dim(detail)}`];
    const room = Math.max(12, width - num.length - mark.length);
    return [`${num}${truncate(title, room)}${mark}`, `     ${ui.dim(detail)}`];
  });
}

/** Sessions the picker offers at most (newest first); older ones are reached with /resume ID. */
const PICK_MAX = 200;

async function model(cmd: ParsedCommand, ctx: SlashContext): Promise<SlashOutcome> {
  const { session, ui } = ctx;
  let name = cmd.args;
  if (!name) {
    const m = session.model;
    ui.print(
      ui.dim(
        `model ${ui.clean(m.name)} · provider ${session.provider} · context window ${m.context_window ?? "unknown"} tokens`,
      ),
    );
    if (!ctx.pick) return DONE;
    const choices = await session.modelChoices();
    const index = await ctx.pick({
      title: "switch the model for the next request:",
      action: "switch",
      rows: choices.map((c) => ({
        label: `${c.name}${c.name === m.name ? " (this one)" : ""}`,
        detail: [
          c.source === "built-in"
            ? "built-in table"
            : c.source === "config"
              ? "config.json"
              : "the provider lists it",
          c.context_window ? `window ${c.context_window}` : "window unknown",
          ...(c.price ? [`$${c.price.input} / $${c.price.output} per M`] : []),
        ].join(" · "),
      })),
      initial: Math.max(
        0,
        choices.findIndex((c) => c.name === m.name),
      ),
    });
    const chosen = index === undefined ? undefined : choices[index];
    if (!chosen || chosen.name === m.name) {
      ui.print(ui.dim(chosen ? "that is the model in use" : "no model chosen"));
      return DONE;
    }
    name = chosen.name;
  }
  try {
    const next = session.setModel(name);
    ui.print(
      ui.dim(
        `model switched to ${ui.clean(next.name)} for the next request (context window ${next.context_window})`,
      ),
    );
    // The status line's context figure is against the new window at once, not after the next reply.
    await session.measureContext();
  } catch (err) {
    ui.print(ui.red(`✗ /model: ${ui.clean(errorMessage(err))}`));
  }
  return DONE;
}

async function resume(cmd: ParsedCommand, ctx: SlashContext): Promise<SlashOutcome> {
  const { session, ui } = ctx;
  const list = session.listSessions();
  const current = session.id;
  if (!cmd.args) {
    if (list.length === 0) {
      ui.print(ui.dim("no saved sessions in this workspace"));
      return DONE;
    }
    if (ctx.pick) {
      const offered = savedSessions({ workspace: session.workspace }).slice(0, PICK_MAX);
      const here = offered.findIndex((m) => m.id === current);
      const index = await ctx.pick(
        sessionPickRequest(offered, {
          current,
          title: `resume a session of this workspace (${offered.length} saved, newest first):`,
          // The newest session that is not this one: what "resume" most often means.
          initial: here === 0 && offered.length > 1 ? 1 : 0,
        }),
      );
      const chosen = index === undefined ? undefined : offered[index];
      if (!chosen) {
        ui.print(ui.dim("no session chosen"));
        return DONE;
      }
      if (chosen.id === current) {
        ui.print(ui.dim("that is the session you are in"));
        return DONE;
      }
      return { kind: "switch", resume: chosen.id };
    }
    ui.print(
      ui.bold("sessions of this workspace (newest first):"),
      ...pickerLines(list.slice(0, 20), current, ui),
    );
    ui.print(ui.dim("resume one with /resume N or /resume ID"));
    return DONE;
  }
  const n = Number(cmd.args);
  const chosen = Number.isInteger(n) && n >= 1 ? list[n - 1] : list.find((m) => m.id.startsWith(cmd.args));
  if (!chosen) {
    ui.print(ui.red(`✗ /resume: no session "${ui.clean(cmd.args)}" in this workspace; /resume lists them`));
    return DONE;
  }
  if (chosen.id === current) {
    ui.print(ui.dim("that is the session you are in"));
    return DONE;
  }
  return { kind: "switch", resume: chosen.id };
}

async function compact(cmd: ParsedCommand, ctx: SlashContext): Promise<SlashOutcome> {
  const { session, ui } = ctx;
  try {
    // A failed compaction was already shown by its `compaction` event.
    if ((await session.compact(cmd.args || undefined)) === "cancelled")
      ui.print(ui.yellow("compaction cancelled; the conversation is unchanged"));
  } catch (err) {
    ui.print(ui.red(`✗ ${ui.clean(errorMessage(err))}`));
  }
  return DONE;
}

async function trust(ctx: SlashContext): Promise<SlashOutcome> {
  const { ui } = ctx;
  const lines = await ctx.session.trustProjectFiles();
  if (lines.length === 0)
    ui.print(ui.dim("nothing to accept: .i/hooks.json and .i/agents/ are absent or accepted"));
  else
    ui.print(...lines.map((l) => ui.clean(l)), ui.dim("accepted for this workspace; they apply from now on"));
  return DONE;
}

function agents(ctx: SlashContext): SlashOutcome {
  const { ui } = ctx;
  const found = ctx.session.agentDefinitions();
  for (const a of found.agents) {
    const tools = a.tools ? a.tools.join(", ") : "the session's tools";
    const model = a.model ? ` · model ${ui.clean(a.model)}` : "";
    ui.print(`${ui.bold(ui.clean(a.name))} ${ui.dim(`— ${ui.clean(a.description)}`)}`);
    ui.print(ui.dim(`  tools: ${ui.clean(tools)}${model} · ${ui.clean(a.source)}`));
  }
  for (const p of found.problems) ui.print(ui.yellow(`! ${ui.clean(p)}`));
  if (found.projectIgnored)
    ui.print(
      ui.yellow(
        `! ${ui.clean(found.projectIgnored)}: not accepted for this workspace; its agents are not used`,
      ),
    );
  return DONE;
}

function status(ctx: SlashContext): SlashOutcome {
  const { ui } = ctx;
  const st = ctx.session.status();
  const m = st.model;
  const modules = st.modules.map((mod) =>
    mod.builtin ? mod.name : `${mod.name} (bound: ${ui.clean(mod.exec.join(" "))})`,
  );
  const c = st.context;
  ui.print(
    ui.dim(`model ${ui.clean(m.name)} (window ${m.context_window ?? "unknown"})`),
    ui.dim(`provider ${st.provider}`),
    ui.dim(`profile ${ui.clean(st.profile)}`),
    ui.dim(`modules ${modules.join(", ") || "none"}`),
    ui.dim(`session ${ui.clean(st.id)} · ${st.messages} messages · ${ui.clean(st.workspace)}`),
    ui.dim(
      `context ${c ? `${c.total} / ${c.hard_limit} tokens (${Math.round(c.ratio * 100)}%)` : "not measured yet"}`,
    ),
    ui.dim(`approvals ${st.approvals}`),
  );
  return DONE;
}

function cost(ctx: SlashContext): SlashOutcome {
  ctx.ui.print(...costLines(ctx.session, ctx.ui));
  return DONE;
}

/** `/mcp__server__prompt args`: the prompt's text becomes the message; a failure is said, nothing sent. */
async function mcpPrompt(cmd: ParsedCommand, ctx: SlashContext): Promise<SlashOutcome> {
  const text = await mcpPromptText(cmd.name, cmd.args, ctx.session, ctx.ui);
  return text === undefined ? DONE : { kind: "send", text };
}

const MODES: Record<string, ApprovalPolicy> = {
  ask: "ask",
  edits: "edits",
  "accept-edits": "edits",
  all: "all",
  none: "none",
  "read-only": "none",
};

function approve(args: string, ctx: SlashContext): void {
  const { session, ui } = ctx;
  if (!args) {
    ui.print(
      ui.dim(`approvals: ${APPROVAL_LABELS[session.approvalMode]} (${session.status().approvals})`),
      ui.dim("/approve ask | edits | all | none — or Shift+Tab to cycle ask → accept edits → all"),
    );
    return;
  }
  const mode = MODES[args.toLowerCase()];
  if (!mode) {
    ui.print(ui.red(`✗ /approve: no mode "${ui.clean(args)}"; give ask, edits, all or none`));
    return;
  }
  session.setApprovalMode(mode);
  ui.print(ui.dim(`approvals: ${APPROVAL_LABELS[mode]} from the next call on`));
}

export async function runSlash(cmd: ParsedCommand, ctx: SlashContext): Promise<SlashOutcome> {
  const { ui, registry } = ctx;
  const builtin = registry.builtin(cmd.name);
  if (!builtin) {
    const t = registry.template(cmd.name);
    if (t)
      return {
        kind: "send",
        text: expandTemplate(t, cmd.args, ctx.session.workspace),
        ...(t.model ? { model: t.model } : {}),
      };
    // Commands are read in lower case; a prompt's name may not be.
    const prompt = ctx.session.mcpPrompts().find((p) => p.name.toLowerCase() === cmd.name);
    if (prompt) return mcpPrompt({ ...cmd, name: prompt.name }, ctx);
    ui.print(ui.yellow(`unknown command /${ui.clean(cmd.name)}; /help lists the commands`));
    return DONE;
  }
  switch (builtin.name) {
    case "help":
      ui.print(...registry.help(ui.width()).map((l) => ui.dim(ui.clean(l))));
      return DONE;
    case "model":
      return model(cmd, ctx);
    case "new":
      return { kind: "switch" };
    case "clear":
      return { kind: "switch", clear: true };
    case "resume":
      return resume(cmd, ctx);
    case "sessions": {
      const list = ctx.session.listSessions();
      if (list.length === 0) ui.print(ui.dim("no saved sessions in this workspace"));
      else ui.print(...pickerLines(list, ctx.session.id, ui));
      return DONE;
    }
    case "approve":
      approve(cmd.args, ctx);
      return DONE;
    case "rename":
      try {
        ui.print(ui.dim(`session renamed: ${ui.clean(ctx.session.rename(cmd.args))}`));
      } catch (err) {
        ui.print(ui.red(`✗ /rename: ${ui.clean(errorMessage(err))}`));
      }
      return DONE;
    case "compact":
      return compact(cmd, ctx);
    case "compactions":
      showCompactions(cmd.args, ctx.session, ui);
      return DONE;
    case "uncompact":
      await uncompactCommand(cmd.args, ctx.session, ui);
      return DONE;
    case "status":
      return status(ctx);
    case "cost":
      return cost(ctx);
    case "mcp":
      await mcpCommand(cmd.args, ctx.session, ui);
      return DONE;
    case "agents":
      return agents(ctx);
    case "trust":
      return trust(ctx);
    case "exit":
      return { kind: "exit" };
    default: {
      const r = await runFeatureCommand(builtin.name, cmd.args, ctx);
      return typeof r === "object" ? { kind: "send", text: r.send } : DONE;
    }
  }
}
