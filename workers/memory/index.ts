import { defineWorkerModule, toolError, toolText } from "../sdk/module.ts";
import { appendToSystem } from "../sdk/system-prompt.ts";
import { clipText } from "../sdk/text-limits.ts";
import { defineTool } from "../sdk/tool.ts";
import { workerDataDir } from "../sdk/worker-env.ts";
import { keepNotesInCandidate } from "./compact-commit.ts";
import { noteLine, renderNotes } from "./render.ts";
import { MAX_NOTE_CHARS, MAX_NOTES, MemoryStore } from "./store.ts";

/** Largest `list` result; the notes themselves are bounded, this bounds their sum. */
export const MAX_LIST_CHARS = 32000;

export function createMemoryModule(dataDir = workerDataDir()) {
  const store = (workspace: string) => new MemoryStore(dataDir, workspace);
  return defineWorkerModule({
    name: "memory",
    hooks: {
      system_prompt: (data, ctx) =>
        appendToSystem(data, "memory", renderNotes(store(ctx.workspace).read().notes)),
      before_compact_commit: (data, ctx) => {
        const notes = store(ctx.workspace).read().notes;
        return keepNotesInCandidate(data, (maxChars) => renderNotes(notes, maxChars));
      },
    },
    tools: [
      defineTool("memory", "memory", (args, ctx) => {
        const { action, text, id } = args;
        const s = store(ctx.workspace);
        if (action === "add") {
          const note = text?.trim() ?? "";
          if (note === "") return toolError('memory add: "text" is required (the note to remember)');
          if (note.length > MAX_NOTE_CHARS) {
            return toolError(
              `memory add: the note has ${note.length} characters, over the ${MAX_NOTE_CHARS} limit; shorten it`,
            );
          }
          if (s.read().notes.length >= MAX_NOTES) {
            return toolError(`memory add: ${MAX_NOTES} notes already; remove outdated ones first`);
          }
          return toolText(`remembered note ${s.add(note).id}`);
        }
        if (action === "remove") {
          if (!id?.trim()) return toolError('memory remove: "id" is required (see action "list")');
          const removed = s.remove(id.trim());
          return removed
            ? toolText(`removed note ${removed.id}`)
            : toolError(`memory remove: no note with id "${id}"; call action "list" to see the ids`);
        }
        const notes = s.read().notes;
        if (notes.length === 0) return toolText("no notes for this workspace");
        return toolText(
          clipText(
            notes.map(noteLine).join("\n"),
            MAX_LIST_CHARS,
            () => "[list cut; remove notes you no longer need]",
          ),
        );
      }),
    ],
  });
}
