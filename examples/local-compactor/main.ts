// A replacement compactor: a standalone executable that takes over the four `compact` hooks and writes
// the summary locally (extractive notes, at most 2048 UTF-8 bytes), so compaction makes no model request.
// It omits old images and private adapter fields. It is a starting point for your own policy, not a
// semantic equivalent of a model-written summary; the core still rejects a result that is invalid, does
// not fit the budget or does not shrink the history.
//
//   i-local-compactor [--compact] [--keep N]
//     --compact   serve the compact module (the only one this worker implements; accepted so the binding
//                 can name the module, as in ["/abs/i-local-compactor", "--compact"])
//     --keep N    keep at least N recent messages (default 6)
//
// Build: bun examples/local-compactor/build.ts [--windows]. Bind: see README.md next to this file.
import { parseArgs } from "node:util";
import { type Data, defineWorkerModule, latestCut, serve } from "@i-agent/worker-sdk";
import { capBytes, extractNotes, NOTES_MAX_BYTES } from "./notes.ts";

function usage(message: string): never {
  process.stderr.write(`i-local-compactor: ${message}; usage: i-local-compactor [--compact] [--keep N]\n`);
  process.exit(2);
}

let values: { keep: string };
try {
  ({ values } = parseArgs({
    options: { compact: { type: "boolean" }, keep: { type: "string", default: "6" } },
    strict: true,
  }));
} catch (err) {
  // parseArgs names the option ("Unknown option '--x'"): that one line, not a stack trace.
  usage((err as Error).message);
}
const keep = Number(values.keep);
if (!Number.isInteger(keep) || keep < 1) usage(`--keep must be a positive integer, got "${values.keep}"`);

const compactor = defineWorkerModule({
  name: "compact",
  hooks: {
    compact_plan(data) {
      // This policy follows the budget's recommendation; a manual /compact (force) always plans.
      const rec = data.budget.recommendation;
      if (!data.force && rec !== "compact" && rec !== "over") return { ...data, cut: null };
      // The latest turn boundary that keeps `keep` messages, never splitting a tool call from its result.
      const cut = latestCut(data.history, keep) ?? null;
      return { ...data, cut, state: cut === null ? null : { by: "i-local-compactor", keep } };
    },
    before_compact(data) {
      // Returning `summary` selects the local route: the core makes no summary request.
      const notes = extractNotes(data.messages);
      const out: Data = { ...data, summary: notes };
      delete out.retained_images;
      return out;
    },
    after_compact(data) {
      const summary = data.summary.trim();
      if (summary === "") throw new Error("the local summary is empty");
      return { ...data, summary: capBytes(summary, NOTES_MAX_BYTES) };
    },
    before_compact_commit(data) {
      // No reference snapshots here: the notes already list the files. Drop any image parts another hook
      // might have attached to the summary message, so old images really are omitted.
      const candidate = data.candidate.map((m) =>
        m.meta?.summary === true && Array.isArray(m.content)
          ? { ...m, content: m.content.filter((p) => p.type === "text") }
          : m,
      );
      return { ...data, candidate };
    },
  },
});

// No top-level await: the release build compiles this to bytecode, which needs a CommonJS-shaped entry.
void serve([compactor]);
