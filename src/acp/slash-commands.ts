// The console's slash commands that make sense in an editor, offered with `available_commands_update` and
// run when a prompt is one of them: /compact, /compactions, /undo, /redo, /fork, /export, plus the MCP
// servers' prompts (their text is sent as the message). Anything else starting with `/` is a message.
import type { AvailableCommand, ContentBlock } from "@agentclientprotocol/sdk";
import type { AgentSession } from "../agent/agent-session.ts";
import { errorMessage } from "../contract/errors.ts";

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
      say(`Exported to ${s.exportTo(args || undefined)}.`);
    },
  },
};

export function availableCommands(s: AgentSession): AvailableCommand[] {
  const out: AvailableCommand[] = Object.entries(BUILT_IN).map(([name, c]) => ({
    name,
    description: c.description,
    ...(c.hint ? { input: { hint: c.hint } } : {}),
  }));
  for (const p of s.mcpPrompts())
    if (!BUILT_IN[p.name])
      out.push({
        name: p.name,
        description: p.description || "MCP prompt",
        ...(p.args ? { input: { hint: p.args } } : {}),
      });
  return out;
}

/**
 * A prompt that is a slash command: "done" when it ran (its answer said), the blocks to send instead
 * (an MCP prompt's text), or undefined when the prompt is a message.
 */
export async function slashCommand(
  s: AgentSession,
  blocks: readonly ContentBlock[],
  say: Say,
): Promise<"done" | ContentBlock[] | undefined> {
  const first = blocks[0];
  if (blocks.length !== 1 || first?.type !== "text") return undefined;
  const m = /^\/([a-z0-9_.:-]+)(?:\s+([\s\S]*))?$/i.exec(first.text.trim());
  if (!m) return undefined;
  const [, name = "", args = ""] = m;
  const cmd = BUILT_IN[name];
  if (cmd) {
    try {
      await cmd.run(s, args.trim(), say);
    } catch (err) {
      say(`/${name}: ${errorMessage(err)}`);
    }
    return "done";
  }
  if (s.mcpPrompts().some((p) => p.name === name)) {
    try {
      return [{ type: "text", text: await s.expandMcpPrompt(name, args.trim()) }];
    } catch (err) {
      say(`/${name}: ${errorMessage(err)}`);
      return "done";
    }
  }
  return undefined;
}
