// The built-in `compact` module: the default compaction policy. compact.json in config_dir
// (this worker's cwd) tunes it; a replacement bound in bindings.json takes over all four hooks.
import type { Message } from "../../src/contract/history.ts";
import { isRecord } from "../../src/lib/is-record.ts";
import { messagesShapeError } from "../../src/lib/validate-history.ts";
import type { Data } from "../sdk/module.ts";
import { defineWorkerModule } from "../sdk/module.ts";
import { plan } from "./plan.ts";
import { choosePrompt, imagesPolicy, loadPolicy } from "./policy.ts";
import { normaliseSummary } from "./postprocess.ts";
import { DESCRIBE_IMAGES_PROMPT, hasImages, prepareTranscript } from "./prepare.ts";
import { pruneMessages } from "./prune.ts";
import { collectUserMessages, restoreUserMessages, UserMessages } from "./restore.ts";
import { roomOf } from "./room.ts";
import { collectTouchedFiles, restoreSnapshots, TouchedFiles } from "./snapshots.ts";

/** A model set to images "omit" is text-only (the model table marks text-only models so). */
function readsImages(model: unknown): boolean {
  return (model as { images?: unknown } | undefined)?.images !== "omit";
}

function modelName(model: unknown): string {
  const name = (model as { name?: unknown } | undefined)?.name;
  return typeof name === "string" ? name : "?";
}

/** The messages in `data[field]`, checked by hand (megabytes: zod would cost more than the hook itself). */
function messagesOf(data: Data, field: string, event: string): Message[] {
  const problem = messagesShapeError(data[field], `data.${field}`);
  if (problem) throw new Error(`${event}: ${problem}`);
  return data[field] as Message[];
}

/**
 * The state with what the commit restores from the compacted span: the files it used (reference
 * snapshots) and the user's own messages (the task survives).
 */
function withRestorables(state: unknown, messages: readonly Message[]): Data {
  const base = isRecord(state) ? state : {};
  return {
    ...base,
    touched_files: collectTouchedFiles(messages),
    user_messages: collectUserMessages(messages),
  };
}

/** The user messages carried by before_compact; none when the state does not hold them. */
function userMessagesOf(state: unknown): UserMessages {
  const carried = (state as { user_messages?: unknown } | null | undefined)?.user_messages;
  if (carried === undefined) return [];
  const parsed = UserMessages.safeParse(carried);
  if (parsed.success) return parsed.data;
  throw new Error(
    "before_compact_commit: state.user_messages is malformed (it must come from before_compact)",
  );
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
      // The prune route: the same span back with old tool outputs shortened; the core commits it as is.
      // Nothing to restore: every message stays, and so does an earlier summary's restored text.
      if ((data.state as { route?: unknown } | null)?.route === "prune" && !("summary" in data))
        return { ...data, pruned: pruneMessages(messages) };
      const state = withRestorables(data.state, messages);
      // A summary from an earlier hook already chose the local route: nothing left to prepare.
      if ("summary" in data) return { ...data, state };
      const policy = loadPolicy(ctx.cwd);
      const workspace = typeof data.workspace === "string" ? data.workspace : ctx.workspace;
      let images =
        state.images === "keep" || state.images === "omit" || state.images === "describe"
          ? state.images
          : imagesPolicy(policy, data.model);
      const notes: string[] = [];
      if (images === "describe" && hasImages(messages) && !readsImages(data.model)) {
        // A text-only model cannot describe what it cannot see: the images are omitted, and the user told.
        images = "omit";
        notes.push(
          `images: "describe" needs a model that reads images, and model ${modelName(data.model)} is text-only (images: "omit"); the old images are omitted from the summary instead of described`,
        );
      }
      const prepared = prepareTranscript(messages, images);
      let prompt = choosePrompt(policy, data, workspace);
      if (images === "describe" && prepared.summary_images.length > 0)
        prompt = `${prompt.trimEnd()}\n\n${DESCRIBE_IMAGES_PROMPT}\n`;
      const out: Data = { ...data, state, prompt, messages: prepared.messages };
      if (notes.length > 0) out.notes = notes;
      if (prepared.summary_images.length > 0) out.summary_images = prepared.summary_images;
      if (prepared.retained_images.length > 0) out.retained_images = prepared.retained_images;
      return out;
    },

    after_compact(data) {
      if (typeof data.summary !== "string") throw new Error("after_compact: data.summary is not a string");
      return { ...data, summary: normaliseSummary(data.summary) };
    },

    before_compact_commit(data, ctx) {
      // A pruning keeps every message: restoring would append the snapshots to the summary a second time.
      if (data.route === "prune") return data;
      const workspace = typeof data.workspace === "string" ? data.workspace : ctx.workspace;
      const candidate = messagesOf(data, "candidate", "before_compact_commit");
      // Within the room the hard limit leaves: the user's words first (the task), then the files.
      const room = roomOf(data);
      const withUser = restoreUserMessages(candidate, userMessagesOf(data.state), room);
      const restored = restoreSnapshots(withUser, touchedFilesOf(data.state), workspace, room);
      return {
        ...data,
        candidate: restored,
        ...(Number.isFinite(room.left) ? { restore_room: room.left } : {}),
      };
    },
  },
});
