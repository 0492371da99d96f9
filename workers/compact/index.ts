// The built-in `compact` module: the default compaction policy (seed 000). compact.json in config_dir
// (this worker's cwd) tunes it; a replacement bound in bindings.json takes over all four hooks.
import { z } from "zod";
import { Message } from "../../src/history/schema.ts";
import { defineWorkerModule } from "../sdk/module.ts";
import { plan } from "./plan.ts";
import { choosePrompt, imagesPolicy, loadPolicy } from "./policy.ts";
import { normaliseSummary } from "./postprocess.ts";
import { prepareTranscript } from "./prepare.ts";
import { restoreSnapshots } from "./snapshots.ts";

const Messages = z.array(Message);

function messagesOf(data: Record<string, unknown>, field: string, event: string): Message[] {
  const r = Messages.safeParse(data[field]);
  if (!r.success)
    throw new Error(`${event}: data.${field} is not an array of messages: ${r.error.issues[0]?.message}`);
  return r.data;
}

export const compactModule = defineWorkerModule({
  name: "compact",
  hooks: {
    compact_plan(data, ctx) {
      return plan(data, loadPolicy(ctx.cwd));
    },

    before_compact(data, ctx) {
      // A summary from an earlier hook already chose the local route: nothing left to prepare.
      if ("summary" in data) return data;
      const policy = loadPolicy(ctx.cwd);
      const workspace = typeof data.workspace === "string" ? data.workspace : ctx.workspace;
      const state = data.state as { images?: unknown } | null | undefined;
      const images =
        state?.images === "keep" || state?.images === "omit" || state?.images === "describe"
          ? state.images
          : imagesPolicy(policy, data.model);
      const prepared = prepareTranscript(messagesOf(data, "messages", "before_compact"), images);
      const out: Record<string, unknown> = {
        ...data,
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
      const compacted = messagesOf(data, "compacted", "before_compact_commit");
      return { ...data, candidate: restoreSnapshots(candidate, compacted, workspace) };
    },
  },
});
