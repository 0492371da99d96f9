// /undo, /rewind and /redo: the workspace (code), the conversation, or both, put back to before a user
// message, and a rewind reversed. Every one is logged as a `rewind` event before it changes anything,
// with the workspace as it was just before (a snapshot in the store) and the messages it drops (a blob),
// so it can itself be reversed, also after a kill -9 in the middle of it.
//
// Files changed since the agent last recorded the workspace (by hand, by another program) are never
// overwritten silently: they are listed and `confirm` decides; declined, nothing changes.
import type { RewindEvent } from "../contract/checkpoints.ts";
import { DroppedMessages } from "../contract/checkpoints.ts";
import type { History, Message } from "../contract/history.ts";
import type { Session } from "../session/session.ts";
import type { Checkpointer } from "./checkpointer.ts";
import { keepGitStatesForRedo, redoGitStates, restoreGitStates } from "./git-state.ts";
import { checkOutOfViewWrites, ignoredByTarget, withKept } from "./out-of-view.ts";
import { applyRestore, planRestore } from "./restore.ts";
import { sha256 } from "./store.ts";
import { readTimeline, redoStack, snapshotAt, tailOf, turnRows, userDraft } from "./timeline.ts";

export type RewindMode = RewindEvent["mode"];

export interface RewindDeps {
  session: Session;
  checkpoints: Checkpointer;
  workspace: string;
  /** the conversation now (the agent's history) */
  history: History;
  /** asked when files changed by hand would be overwritten; false: nothing is changed */
  confirm: (paths: string[]) => Promise<boolean>;
}

export interface RewindOutcome {
  /** false: nothing changed (declined, or impossible: `lines` says why) */
  done: boolean;
  lines: string[];
  history: History;
  /** what goes back in the input box (an undo of a turn) */
  draft?: string;
  /** done, but some file could not be restored (the lines name it) */
  incomplete?: boolean;
}

let counter = 0;
const newId = () => `${Date.now().toString(36)}-${process.pid.toString(36)}-${(++counter).toString(36)}`;

function modeHas(mode: RewindMode, part: "code" | "conversation"): boolean {
  return mode === "both" || mode === part;
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

/** Paths for one line: the first ten, then how many more (an ignored data/ may hold thousands). */
function namesOf(paths: readonly string[]): string {
  const shown = paths.slice(0, 10).join(", ");
  return paths.length > 10 ? `${shown} and ${paths.length - 10} more` : shown;
}

/**
 * Put the workspace back to snapshot `targetId` (undefined: unchanged since, nothing to do). Returns the
 * snapshot of the workspace before, and what was done; `refused` when the user declined or it cannot be.
 */
async function restoreCode(
  deps: RewindDeps,
  targetId: string | undefined,
): Promise<{
  before?: string;
  lines: string[];
  refused?: boolean;
  apply?: () => { lines: string[]; incomplete: boolean };
}> {
  const cp = deps.checkpoints;
  if (!cp.enabled)
    return {
      lines: [
        "checkpoints are off (checkpoints.json enabled: false): the files were not recorded, so they stay as they are",
      ],
    };
  const lastKnown = cp.lastKnown();
  const now = cp.snapshotNow();
  if (targetId === undefined)
    return { before: now.id, lines: ["no file was changed by the agent since then"] };
  const target = cp.store.readSnapshot(targetId);
  if (!target)
    return {
      lines: [
        "the checkpoint of the files from then is no longer in the store (pruned to stay under max_store_bytes, or deleted); nothing was changed",
      ],
      refused: true,
    };
  const plan = planRestore(
    now.snapshot,
    target,
    lastKnown,
    ignoredByTarget(deps.workspace, target, cp.store),
  );
  const view = checkOutOfViewWrites(deps.workspace, now.snapshot, plan, cp.store, cp.maxFileBytes);
  if (plan.handChanged.length > 0 && !(await deps.confirm(plan.handChanged)))
    return { lines: ["nothing was changed"], refused: true };
  // What the rewind overwrites out of the current snapshot's view is in the state it reverses to.
  const before = view.kept.length > 0 ? cp.keepBefore(withKept(now.snapshot, view.kept), now.id) : now.id;
  const apply = () => {
    const done = applyRestore(deps.workspace, plan, cp.store);
    cp.markKnown(cp.snapshotNow().id);
    const left = plan.outOfView;
    const notes = [
      ...done.problems,
      ...view.lines,
      ...(left.length > 0
        ? [
            `left as they are (ignored by the .gitignore of then, so not recorded as the agent's): ${namesOf(left)}`,
          ]
        : []),
    ];
    const head =
      done.written + done.removed > 0
        ? `files restored: ${plural(done.written, "file")} written, ${plural(done.removed, "file")} removed`
        : notes.length > 0
          ? "no file was written or removed"
          : "the files were already as they were then";
    return { lines: [head, ...notes], incomplete: done.incomplete };
  };
  return { before, lines: [], apply };
}

function storeMessages(deps: RewindDeps, messages: readonly Message[]): string | undefined {
  if (messages.length === 0) return undefined;
  const data = Buffer.from(JSON.stringify(messages));
  const hash = sha256(data);
  deps.checkpoints.store.putBlob(hash, data);
  return hash;
}

/**
 * Rewind to before the user message at history index `index`: the code, the conversation, or both.
 * `kind` "undo": the last turn (its message goes back to the input box).
 */
export async function rewindTo(
  deps: RewindDeps,
  index: number,
  mode: RewindMode,
  kind: "undo" | "rewind",
): Promise<RewindOutcome> {
  const { history, session } = deps;
  const msg = history[index];
  if (msg?.role !== "user")
    return { done: false, lines: [`there is no user message ${index} in this conversation`], history };
  const ts = typeof msg.meta?.ts === "string" ? msg.meta.ts : undefined;
  const timeline = readTimeline(session.dir);
  let code: Awaited<ReturnType<typeof restoreCode>> = { lines: [] };
  if (modeHas(mode, "code")) {
    if (ts === undefined)
      code = {
        lines: [
          "that message has no time recorded, so its files cannot be found; only the conversation can be rewound",
        ],
        refused: true,
      };
    else code = await restoreCode(deps, snapshotAt(timeline, ts));
    if (code.refused) return { done: false, lines: code.lines, history };
  }
  const next = modeHas(mode, "conversation") ? history.slice(0, index) : [...history];
  const dropped = modeHas(mode, "conversation") ? storeMessages(deps, history.slice(index)) : undefined;
  const draft = userDraft(msg);
  const id = newId();
  const event: Omit<RewindEvent, "ts" | "type"> = {
    id,
    kind,
    mode,
    ...(ts ? { to_ts: ts } : {}),
    ...(code.before ? { code_before: code.before } : {}),
    messages_before: history.length,
    messages_after: next.length,
    tail_before: tailOf(history),
    tail_after: tailOf(next),
    ...(dropped ? { dropped } : {}),
    ...(kind === "undo" ? { draft } : {}),
  };
  // Git state recorded before an allowed destructive git command since then (the guard's): each such
  // repository is first recorded as it is, so /redo puts its branches and index back too.
  const gitSince = modeHas(mode, "code") ? ts : undefined;
  const unkept = gitSince ? keepGitStatesForRedo(session.dir, session.id, gitSince, id) : [];
  // The record first: whatever happens next, the state before is in it.
  session.appendEvent("rewind", event);
  const applied = code.apply?.();
  const lines = [...code.lines, ...(applied?.lines ?? []), ...unkept];
  if (gitSince) lines.push(...restoreGitStates(session.dir, gitSince, !deps.checkpoints.enabled));
  if (modeHas(mode, "conversation")) {
    session.checkpoint(next);
    lines.push(
      `conversation rewound: ${plural(history.length - next.length, "message")} taken out (/redo puts them back)`,
    );
  }
  return {
    done: true,
    lines,
    history: next,
    ...(kind === "undo" && modeHas(mode, "conversation") ? { draft } : {}),
    ...(applied?.incomplete ? { incomplete: true } : {}),
  };
}

/** The rewind /redo (or /undo right after a /rewind) would reverse, if any. */
export function reversible(deps: Pick<RewindDeps, "session" | "history">): RewindEvent | undefined {
  return redoStack(readTimeline(deps.session.dir), tailOf(deps.history)).at(-1);
}

/** Reverse rewind `r`: its files and its messages back as they were just before it. */
export async function reverseRewind(deps: RewindDeps, r: RewindEvent): Promise<RewindOutcome> {
  const { history, session } = deps;
  let messages: Message[] = [];
  if (r.dropped) {
    try {
      const parsed = DroppedMessages.safeParse(
        JSON.parse(deps.checkpoints.store.readBlob(r.dropped).toString("utf8")),
      );
      if (!parsed.success) throw new Error("the saved messages cannot be read");
      messages = parsed.data;
    } catch (err) {
      return { done: false, lines: [`cannot redo: ${(err as Error).message}`], history };
    }
  }
  let code: Awaited<ReturnType<typeof restoreCode>> = { lines: [] };
  if (modeHas(r.mode, "code") && r.code_before) {
    code = await restoreCode(deps, r.code_before);
    if (code.refused) return { done: false, lines: code.lines, history };
  }
  const next = [...history, ...messages];
  session.appendEvent("rewind", {
    id: newId(),
    kind: "redo",
    mode: r.mode,
    reverses: r.id,
    ...(code.before ? { code_before: code.before } : {}),
    messages_before: history.length,
    messages_after: next.length,
    tail_before: tailOf(history),
    tail_after: tailOf(next),
  } satisfies Omit<RewindEvent, "ts" | "type">);
  const applied = code.apply?.();
  const lines = [...code.lines, ...(applied?.lines ?? [])];
  // The repositories the rewind put back, as they were just before it (see rewindTo).
  if (modeHas(r.mode, "code")) lines.push(...redoGitStates(session.dir, r.id, !deps.checkpoints.enabled));
  if (messages.length > 0) {
    session.checkpoint(next);
    lines.push(`conversation restored: ${plural(messages.length, "message")} back`);
  }
  return { done: true, lines, history: next, ...(applied?.incomplete ? { incomplete: true } : {}) };
}

/** /undo: reverse a /rewind made just before, else rewind the last turn (code and conversation). */
export async function undo(deps: RewindDeps): Promise<RewindOutcome> {
  const r = reversible(deps);
  if (r && r.kind === "rewind") {
    const out = await reverseRewind(deps, r);
    return { ...out, lines: ["the last /rewind is undone:", ...out.lines] };
  }
  const last = turnRows(deps.history, readTimeline(deps.session.dir)).at(-1);
  if (!last)
    return {
      done: false,
      lines: ["nothing to undo: no message of yours in this conversation"],
      history: deps.history,
    };
  return rewindTo(deps, last.index, "both", "undo");
}

/** /redo: reverse the last undo or rewind, while the conversation is as it left it. */
export async function redo(deps: RewindDeps): Promise<RewindOutcome> {
  const r = reversible(deps);
  if (!r)
    return {
      done: false,
      lines: ["nothing to redo (a redo follows an /undo or /rewind, before any new message)"],
      history: deps.history,
    };
  return reverseRewind(deps, r);
}
