// The safety net's operations on an open session, for the facade (agent-session.ts): /undo, /redo,
// /rewind, /fork and /export, each on the running agent's conversation, which a rewind replaces.
import { resolve } from "node:path";
import { UserError } from "../contract/errors.ts";
import { forkSession } from "../safety/fork.ts";
import {
  type RewindDeps,
  type RewindMode,
  type RewindOutcome,
  redo,
  rewindTo,
  undo,
} from "../safety/rewind.ts";
import { readTimeline, type TurnRow, turnRows } from "../safety/timeline.ts";
import type { AgentRuntime } from "./setup.ts";

export type { RewindMode, RewindOutcome, TurnRow };

/** Asked before files changed by hand are overwritten; false changes nothing. */
export type ConfirmOverwrite = (paths: string[]) => Promise<boolean>;

function deps(rt: AgentRuntime, confirm: ConfirmOverwrite): RewindDeps {
  return {
    session: rt.session,
    checkpoints: rt.checkpoints,
    workspace: rt.workspace,
    history: rt.agent.history,
    confirm,
  };
}

function applied(rt: AgentRuntime, out: RewindOutcome): RewindOutcome {
  if (out.done) rt.agent.history = [...out.history];
  return out;
}

/** The user's messages of the conversation, oldest first, with the files each turn changed. */
export function turnsOf(rt: AgentRuntime): TurnRow[] {
  return turnRows(rt.agent.history, readTimeline(rt.session.dir));
}

export async function undoLast(rt: AgentRuntime, confirm: ConfirmOverwrite): Promise<RewindOutcome> {
  return applied(rt, await undo(deps(rt, confirm)));
}

export async function redoLast(rt: AgentRuntime, confirm: ConfirmOverwrite): Promise<RewindOutcome> {
  return applied(rt, await redo(deps(rt, confirm)));
}

/** Rewind to before the user's message `turn` (an index into turnsOf). */
export async function rewindTurn(
  rt: AgentRuntime,
  turn: number,
  mode: RewindMode,
  confirm: ConfirmOverwrite,
): Promise<RewindOutcome> {
  const row = turnsOf(rt)[turn];
  if (!row) throw new UserError(`there is no message ${turn + 1} of yours in this conversation`);
  return applied(rt, await rewindTo(deps(rt, confirm), row.index, mode, "rewind"));
}

/** A new session with the conversation up to before the user's message `turn` (all of it: undefined). */
export function forkAt(rt: AgentRuntime, dataDir: string, turn?: number): { id: string; messages: number } {
  const history = rt.agent.history;
  const keep = turn === undefined ? history.length : (turnsOf(rt)[turn]?.index ?? history.length);
  const fork = forkSession(dataDir, rt.session, history, Math.max(1, keep));
  return { id: fork.id, messages: Math.max(1, keep) - 1 };
}

/**
 * Write the conversation to the new file `file` (relative to the workspace); its format by extension.
 * The exporters load on the first export: a session that never exports never loads them.
 */
export async function exportConversation(rt: AgentRuntime, file: string | undefined): Promise<string> {
  const { formatOfPath, renderExport, writeNewFile } = await import("../safety/export.ts");
  const path = resolve(rt.workspace, file || `session-${rt.session.id}.md`);
  const format = formatOfPath(path);
  if (!format) throw new UserError(`${path}: end the name in .md, .html or .json to choose the format`);
  writeNewFile(path, renderExport(rt.session, rt.agent.history, format));
  return path;
}
