// The console's slash commands that make sense in an editor, offered with `available_commands_update` and
// run when a prompt is one of them: /compact, /compactions, /undo, /redo, /fork, /export; then the user's
// prompt templates and skills, and the MCP servers' prompts, whose text is sent as the message (a template
// expands as in the console). Anything else starting with `/` is a message.
import type { AvailableCommand, ContentBlock } from "@agentclientprotocol/sdk";
import type { AgentSession, PromptTemplate } from "../agent/agent-session.ts";
import { errorMessage } from "../contract/errors.ts";
import { expandTemplate } from "../lib/prompt-template.ts";
import { expandSkill, type Skill } from "../lib/skill-catalog.ts";

type Say = (text: string) => void;
type Run = (s: AgentSession, args: string, say: Say) => Promise<void>;

/** An editor cannot answer "overwrite files changed since?": undo and redo keep such files as they are. */
const keepChanged = async () => false;

const BUILT_IN: Record<string, { description: string; hint?: string; run: Run }> = {
  compact: {
    description: "compact the conversation now (optionally: what the summary should keep)",
    hint: "instructions",
    async run(s, args, say) {
      const r = await s.compact(args || undefined);
      say(
        r === "done"
          ? "Conversation compacted."
          : r === "cancelled"
            ? "Compaction cancelled."
            : "Compaction failed.",
      );
    },
  },
  compactions: {
    description: "list this session's compactions: what each kept and summarised",
    async run(s, _args, say) {
      const r = s.compactions();
      const line = (c: (typeof r.compactions)[number]) =>
        `${c.number}. ${c.ts} ${c.reason ?? ""}: ${c.messages_before} → ${c.messages_after} messages${c.tokens_before && c.tokens_after ? `, ${c.tokens_before} → ${c.tokens_after} tokens` : ""}`;
      say(r.compactions.length === 0 ? "No compactions yet." : r.compactions.map(line).join("\n"));
    },
  },
  undo: {
    description: "put the files and the conversation back to before the last turn",
    async run(s, _args, say) {
      const r = await s.undo(keepChanged);
      say(r.lines.join("\n") || (r.done ? "Undone." : "Nothing to undo."));
    },
  },
  redo: {
    description: "reverse the last undo",
    async run(s, _args, say) {
      const r = await s.redo(keepChanged);
      say(r.lines.join("\n") || (r.done ? "Redone." : "Nothing to redo."));
    },
  },
  fork: {
    description: "save a copy of this conversation as a new session (resume it with i -r ID)",
    async run(s, _args, say) {
      const f = s.fork();
      say(`Forked into session ${f.id} (${f.messages} messages); resume it with \`i -r ${f.id}\`.`);
    },
  },
  export: {
    description: "write the conversation to a file (md, html or json by its name)",
    hint: "file",
    async run(s, args, say) {
      say(`Exported to ${await s.exportTo(args || undefined)}.`);
    },
  },
};

/** The user's own commands: prompt templates and skills, as the session finds them now. */
export interface UserCommands {
  templates: readonly PromptTemplate[];
  skills: readonly Skill[];
}

/** What a prompt's first word may name: a skill whose name has spaces cannot be typed as a command. */
const COMMAND_NAME = /^[a-z0-9_.:-]+$/i;

/** Templates and skills a built-in does not hide; a template hides a skill of the same name. */
function usable(user: UserCommands): UserCommands {
  const templates = user.templates.filter((t) => !BUILT_IN[t.name]);
  const taken = new Set(templates.map((t) => t.name));
  const skills = user.skills.filter(
    (k) => COMMAND_NAME.test(k.name) && !BUILT_IN[k.name] && !taken.has(k.name),
  );
  return { templates, skills };
}

export function availableCommands(s: AgentSession, user: UserCommands): AvailableCommand[] {
  const out: AvailableCommand[] = Object.entries(BUILT_IN).map(([name, c]) => ({
    name,
    description: c.description,
    ...(c.hint ? { input: { hint: c.hint } } : {}),
  }));
  const { templates, skills } = usable(user);
  for (const t of templates)
    out.push({
      name: t.name,
      description: `template: ${t.description || t.path}`,
      input: { hint: t.argumentHint ?? "arguments" },
    });
  for (const k of skills)
    out.push({ name: k.name, description: `skill: ${k.description}`, input: { hint: "task" } });
  const mine = new Set(out.map((c) => c.name));
  for (const p of s.mcpPrompts())
    if (!mine.has(p.name))
      out.push({
        name: p.name,
        description: p.description || "MCP prompt",
        ...(p.args ? { input: { hint: p.args } } : {}),
      });
  return out;
}

/** A command's message in place of the prompt's first block; model: a template's own, for this turn. */
export interface Expansion {
  blocks: ContentBlock[];
  model?: string;
}

/**
 * A prompt that is a slash command: "done" when it ran (its answer said), the message to send instead
 * (a template's, a skill's or an MCP prompt's text, then the prompt's other blocks), or undefined when
 * the prompt is a message.
 */
export async function slashCommand(
  s: AgentSession,
  blocks: readonly ContentBlock[],
  user: () => UserCommands,
  say: Say,
): Promise<"done" | Expansion | undefined> {
  const [first, ...rest] = blocks;
  if (first?.type !== "text") return undefined;
  const m = /^\/([a-z0-9_.:-]+)(?:\s+([\s\S]*))?$/i.exec(first.text.trim());
  if (!m) return undefined;
  const [, name = "", args = ""] = m;
  const cmd = BUILT_IN[name];
  if (cmd) {
    // A built-in takes words, not attachments: with other blocks the prompt is a message.
    if (rest.length > 0) return undefined;
    try {
      await cmd.run(s, args.trim(), say);
    } catch (err) {
      say(`/${name}: ${errorMessage(err)}`);
    }
    return "done";
  }
  const text = (t: string): ContentBlock[] => [{ type: "text", text: t }, ...rest];
  const { templates, skills } = usable(user());
  const template = templates.find((t) => t.name === name);
  if (template)
    return {
      blocks: text(expandTemplate(template, args, s.workspace)),
      ...(template.model ? { model: template.model } : {}),
    };
  const skill = skills.find((k) => k.name === name);
  if (skill) return { blocks: text(expandSkill(skill, args)) };
  if (s.mcpPrompts().some((p) => p.name === name)) {
    try {
      return { blocks: text(await s.expandMcpPrompt(name, args.trim())) };
    } catch (err) {
      say(`/${name}: ${errorMessage(err)}`);
      return "done";
    }
  }
  return undefined;
}
