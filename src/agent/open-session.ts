// Step 2 of assembling a run: the session opened (the one to resume, or a new one), locked, and its
// history brought to what this run's model can take. Closing it flushes what the log holds, and removes
// a session this run created and never wrote to.
import { dataDir } from "../config/paths.ts";
import type { EmitEvent } from "../contract/events.ts";
import type { History } from "../contract/history.ts";
import { lockSession } from "../session/lock.ts";
import { Session, type SessionMeta } from "../session/session.ts";
import type { ApprovalPolicy } from "../tools/types.ts";
import { APPROVAL_MODE_KEY } from "./approval-note.ts";
import type { RunPlan } from "./resolve-run.ts";
import { shortenOversizedResults } from "./result-cap.ts";

export interface OpenedSession {
  session: Session;
  resumed: boolean;
  /** flush and unlock; `stopWorkers` runs between the flush and the removal of an empty new session */
  close(stopWorkers: () => Promise<void>): Promise<void>;
}

/** The plan's session to resume, or a new one for its workspace and target; locked for this process. */
export function openRunSession(plan: RunPlan, parent?: SessionMeta["parent"]): OpenedSession {
  const session =
    plan.existing ??
    Session.create({
      dataDir: dataDir(),
      workspace: plan.workspace,
      ...plan.target,
      model: plan.model.name,
      // a child task's session names the session and the call it ran for
      ...(parent ? { parent } : {}),
    });
  const resumed = plan.existing !== undefined;
  const unlock = lockSession(session.dir, session.id);
  // history.json lags the log during a long run (it is rewritten amortised): bring it up to date when
  // the session closes, and on an exit that skips close (a second Ctrl-C). The log already holds it all,
  // so a failure here loses nothing and must not hide the run's own outcome.
  const flush = () => {
    try {
      session.flush();
    } catch {}
  };
  process.on("exit", flush);
  const close = async (stopWorkers: () => Promise<void>) => {
    process.off("exit", flush);
    try {
      flush();
      await stopWorkers();
    } finally {
      // A session this run created and never wrote to is no session: leave nothing behind. Still under
      // its lock, so no other process is resuming it; a failure only leaves it on disk (it is not listed).
      if (!resumed) {
        try {
          session.removeIfEmpty();
        } catch {}
      }
      unlock();
    }
  };
  return { session, resumed, close };
}

/**
 * The history the agent starts from. A result too big for this model (saved by a run with a bigger one,
 * or before the cap) would make every request too large and leave compaction nothing to cut: it is
 * shortened, and the log keeps it whole. An empty session starts with the system prompt.
 */
export async function startingHistory(
  opened: OpenedSession,
  plan: RunPlan,
  resultCap: number,
  systemPrompt: () => Promise<string>,
  emit: EmitEvent,
  /** the approval mode the new prompt states, kept in its meta (a later change is told by a note) */
  approval?: ApprovalPolicy,
): Promise<History> {
  const { session, resumed } = opened;
  let history: History = session.history();
  const oversized = shortenOversizedResults(history, resultCap);
  if (oversized.shortened > 0) {
    history = oversized.history;
    session.checkpoint(history);
  }
  if (history.length === 0) {
    const meta = approval ? { meta: { [APPROVAL_MODE_KEY]: approval } } : {};
    history = [{ role: "system", content: await systemPrompt(), ...meta }];
  }
  emit({ type: "session", id: session.id, resumed, workspace: plan.workspace });
  if (oversized.shortened > 0)
    emit({
      type: "notice",
      level: "warn",
      message: `shortened ${oversized.shortened} tool result(s) too large for ${plan.model.name}'s context window; the full output stays in the session (i sessions --recover ${session.id})`,
    });
  if (plan.workspaceNotice) emit({ type: "notice", level: "warn", message: plan.workspaceNotice });
  return history;
}
