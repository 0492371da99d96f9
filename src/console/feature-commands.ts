// Slash commands of the console's settings and setup features (/theme; /keys and /init join here), kept
// apart from the core registry so each feature lives in its own file. Shapes are structural (the
// registry's SlashCommand), so this file imports neither the registry nor the dispatcher.

import { initMessage } from "./init-command.ts";
import type { PickRequest } from "./input/picker.ts";
import { keysCommand } from "./keys-command.ts";
import { type LspTarget, lspCommand } from "./lsp-command.ts";
import type { ConsoleUi } from "./ports.ts";
import { themeCommand } from "./theme-command.ts";

export const FEATURE_COMMANDS: ReadonlyArray<{ name: string; args?: string; help: string }> = [
  {
    name: "theme",
    args: "[NAME]",
    help: "pick the colours (dark, light, auto, high-contrast) with a live preview; saved in config.json",
  },
  { name: "keys", help: "the keys in force: keybindings.json over the defaults" },
  { name: "lsp", help: "the language servers: found on PATH or not, running, their state" },
  {
    name: "find",
    args: "TEXT",
    help: "search the transcript: matches highlighted, n older · N newer (Ctrl-F too)",
  },
  {
    name: "init",
    args: "[notes]",
    help: "the model studies the workspace and writes AGENTS.md (shown as a diff, approved like any write)",
  },
];

function findCommand(query: string, ctx: FeatureContext): void {
  const { ui } = ctx;
  if (!ctx.find)
    ui.print(ui.dim("/find needs the live console (a terminal); search the output with your terminal"));
  else if (!query) ui.print(ui.dim("/find TEXT searches the transcript (or press Ctrl-F and type)"));
  else if (!ctx.find(query)) ui.print(ui.dim(`no match for "${ui.clean(query)}" in the transcript`));
}

export interface FeatureContext {
  ui: ConsoleUi;
  session: LspTarget;
  pick?: (req: PickRequest) => Promise<number | undefined>;
  find?: (query: string) => boolean;
}

/**
 * Run one of FEATURE_COMMANDS: true when done, `{ send }` for a message to the model, false when `name` is
 * not one of them.
 */
export async function runFeatureCommand(
  name: string,
  args: string,
  ctx: FeatureContext,
): Promise<boolean | { send: string }> {
  switch (name) {
    case "theme":
      await themeCommand(args, ctx.ui, ctx.pick);
      return true;
    case "keys":
      keysCommand(ctx.ui);
      return true;
    case "lsp":
      await lspCommand(ctx.session, ctx.ui);
      return true;
    case "init":
      return { send: initMessage(args) };
    case "find":
      findCommand(args, ctx);
      return true;
    default:
      return false;
  }
}
