// The built-in `compact` module: the default compaction policy (seed 000). compact.json in config_dir
// (this worker's cwd) tunes it; a replacement bound in bindings.json takes over all four hooks.
import type { Message } from "../../src/contract/history.ts";
import { messagesShapeError } from "../../src/contract/lib/validate-history.ts";
import type { Data } from "../sdk/module.ts";
import { defineWorkerModule } from "../sdk/module.ts";
import { plan } from "./plan.ts";
import { choosePrompt, imagesPolicy, loadPolicy } from "./policy.ts";
import { normaliseSummary } from "./postprocess.ts";
import { prepareTranscript } from "./prepare.ts";
import { collectTouchedFiles, restoreSnapshots, TouchedFiles } from "./snapshots.ts";

/** The messages in `data[field]`, checked by hand (megabytes: zod would cost more than the hook itself). */
function messagesOf(data: Data, field: string, event: string): Message[] {
  const problem = messagesShapeError(data[field], `data.${field}`);
  if (problem) throw new Error(`${event}: ${problem}`);
  return data[field] as Message[];
}

/** The state with the files of the compacted span added, for the reference snapshots at commit. */
function withTouchedFiles(state: unknown, messages: readonly Message[]): Data {
  const base = typeof state === "object" && state !== null && !Array.isArray(state) ? (state as Data) : {};
  return { ...base, touched_files: collectTouchedFiles(messages) };
}

/** The files carried by before_compact; none when the state does not hold them (nothing to restore). */
function touchedFilesOf(state: unknown): TouchedFiles {
  const carried = (state as { touched_files?: unknown } | null | undefined)?.touched_files;
  const parsed = TouchedFiles.safeParse(carried);
  if (parsed.success) return parsed.data;
  if (carried !== undefined)
    throw new Error(
      "before_compact_commit: state.touched_files is malformed (it must come from before_compact)",
    );
  return { files: [], more: 0 };
}

export const compactModule = defineWorkerModule({
  name: "compact",
  check(ctx) {
    loadPolicy(ctx.cwd);
  },
  hooks: {
    compact_plan(data, ctx) {
      return plan(data, loadPolicy(ctx.cwd));
    },

    before_compact(data, ctx) {
      const messages = messagesOf(data, "messages", "before_compact");
      const state = withTouchedFiles(data.state, messages);
      // A summary from an earlier hook already chose the local route: nothing left to prepare.
      if ("summary" in data) return { ...data, state };
      const policy = loadPolicy(ctx.cwd);
      const workspace = typeof data.workspace === "string" ? data.workspace : ctx.workspace;
      const images =
        state.images === "keep" || state.images === "omit" || state.images === "describe"
          ? state.images
          : imagesPolicy(policy, data.model);
      const prepared = prepareTranscript(messages, images);
      const out: Data = {
        ...data,
        state,
        prompt: choosePrompt(policy, data, workspace),
        messages: prepared.messages,
      };
      if (prepared.summary_images.length > 0) out.summary_images = prepared.summary_images;
      if (prepared.retained_images.length > 0) out.retained_images = prepared.retained_images;
      return out;
    },

    after_compact(data) {
      if (typeof data.summary !== "string") throw new Error("after_compact: data.summary is not a string");
      return { ...data, summary: normaliseSummary(data.summary) };
    },

    before_compact_commit(data, ctx) {
      const workspace = typeof data.workspace === "string" ? data.workspace : ctx.workspace;
      const candidate = messagesOf(data, "candidate", "before_compact_commit");
      return { ...data, candidate: restoreSnapshots(candidate, touchedFilesOf(data.state), workspace) };
    },
  },
});
