// The console's slash commands: one registry, each command with one line of help. Prompt templates join
// as further commands; a template never hides a built-in.

import type { PromptTemplate } from "../agent/agent-session.ts";
import { columns } from "../terminal/columns.ts";
import { wrap } from "../terminal/width.ts";
import { FEATURE_COMMANDS } from "./feature-commands.ts";
import { SAFETY_COMMANDS } from "./safety-command-list.ts";

export interface SlashCommand {
  name: string;
  /** how the arguments are written in the help, e.g. "[NAME]" */
  args?: string;
  help: string;
  aliases?: string[];
}

export const BUILTIN_COMMANDS: readonly SlashCommand[] = [
  { name: "help", help: "list the commands and keys" },
  { name: "model", args: "[NAME]", help: "show the model, or switch to NAME for the next request" },
  { name: "new", help: "start a fresh session (the current one stays saved)" },
  { name: "clear", help: "start a fresh session and clear the screen" },
  {
    name: "resume",
    args: "[N|ID]",
    help: "pick a session of this workspace to resume (replays it); /resume N or ID takes one directly",
  },
  { name: "sessions", help: "list this workspace's sessions" },
  { name: "rename", args: "TITLE", help: "give this session a title of your own" },
  {
    name: "approve",
    args: "[MODE]",
    help: "show or set what bash, write and edit need: ask, edits, all, none (Shift+Tab cycles)",
  },
  { name: "compact", args: "[instructions]", help: "summarise the conversation now to free context" },
  {
    name: "compactions",
    args: "[N]",
    help: "list this session's compactions; N shows what one kept and dropped",
  },
  {
    name: "uncompact",
    args: "[N|undo]",
    help: "restore the history before the last compaction (or N) when it fits; undo puts it back",
  },
  {
    name: "status",
    help: "model, provider, profile, modules, session, context, approvals",
    aliases: ["session"],
  },
  {
    name: "mcp",
    args: "[trust]",
    help: "the MCP servers and their status; trust accepts this workspace's .mcp.json",
  },
  {
    name: "trust",
    help: "accept this workspace's own hooks, agents and MCP servers (.i/hooks.json, .i/agents/, .mcp.json), shown first",
  },
  {
    name: "agents",
    help: "list the sub-agents the task tool can run (built-in, config_dir/agents, .i/agents)",
  },
  { name: "cost", help: "tokens in and out for this session, and the cost when known", aliases: ["usage"] },
  ...FEATURE_COMMANDS,
  ...SAFETY_COMMANDS,
  { name: "exit", help: "save the session and leave", aliases: ["quit"] },
];

export const KEYS_HELP =
  "keys: Enter sends · Shift+Tab: approval mode · Shift+Enter, Alt+Enter or \\ then Enter: new line · Esc or Ctrl-C cancels a running turn · Ctrl-C clears the line (twice on an empty line: exit) · Ctrl-D on an empty line exits · Up/Down history · Ctrl-R search · Tab completes /commands and @paths · @path attaches a file · !cmd runs a shell command";

export interface ParsedCommand {
  name: string;
  args: string;
}

/** `/name args` → its parts; undefined for anything that is not a slash command (`/` alone, `//x`, a path). */
export function parseSlash(text: string): ParsedCommand | undefined {
  const m = /^\/([a-z][a-z0-9_-]*)(?:\s+([\s\S]*))?$/i.exec(text.trim());
  if (!m) return undefined;
  return { name: (m[1] as string).toLowerCase(), args: (m[2] ?? "").trim() };
}

export class CommandRegistry {
  readonly templates: PromptTemplate[];
  /** templates that a built-in of the same name hides */
  readonly shadowed: string[];

  constructor(
    templates: PromptTemplate[] = [],
    /** commands that come and go while the console runs (MCP prompts) */
    private readonly dynamic: () => { name: string; description: string; args: string }[] = () => [],
  ) {
    const taken = new Set(BUILTIN_COMMANDS.flatMap((c) => [c.name, ...(c.aliases ?? [])]));
    this.templates = templates.filter((t) => !taken.has(t.name));
    this.shadowed = templates.filter((t) => taken.has(t.name)).map((t) => t.path);
  }

  /** The built-in a name (or alias) means. */
  builtin(name: string): SlashCommand | undefined {
    return BUILTIN_COMMANDS.find((c) => c.name === name || c.aliases?.includes(name));
  }

  template(name: string): PromptTemplate | undefined {
    return this.templates.find((t) => t.name === name);
  }

  /** The `/` menu's rows: every command with its one line of help (a template's own description). */
  menu(): Array<{ name: string; help: string }> {
    return [
      ...BUILTIN_COMMANDS.map((c) => ({ name: c.name, help: c.help })),
      ...this.templates.map((t) => ({ name: t.name, help: `template: ${t.description || t.path}` })),
    ];
  }

  /** Every name Tab may complete. */
  names(): string[] {
    return [
      ...BUILTIN_COMMANDS.flatMap((c) => [c.name, ...(c.aliases ?? [])]),
      ...this.templates.map((t) => t.name),
      ...this.dynamic().map((p) => p.name),
    ];
  }

  /**
   * The commands, then the keys, fitted to `width`: a description that wraps continues under itself (one
   * line per command when there is room).
   */
  help(width = Number.POSITIVE_INFINITY): string[] {
    const rows = [
      ...BUILTIN_COMMANDS.map((c) => {
        const alias = c.aliases?.length ? ` (or ${c.aliases.map((a) => `/${a}`).join(", ")})` : "";
        return [`/${c.name}${c.args ? ` ${c.args}` : ""}`, `${c.help}${alias}`];
      }),
      ...this.templates.map((t) => [
        `/${t.name} ${t.argumentHint ?? "[args]"}`,
        `template: ${t.description || t.path}`,
      ]),
      ...this.dynamic().map((p) => [
        `/${p.name}${p.args ? ` ${p.args}` : ""}`,
        `MCP prompt: ${p.description}`,
      ]),
    ];
    const fit = Number.isFinite(width) ? width : Number.MAX_SAFE_INTEGER;
    const [first = "", ...rest] = wrap(KEYS_HELP, Math.max(20, fit - 6));
    return [
      ...columns(rows as Array<[string, string]>, fit, { maxTerm: 28 }),
      first,
      ...rest.map((l) => `      ${l}`),
    ];
  }
}
