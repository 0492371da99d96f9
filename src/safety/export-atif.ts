// A session as an ATIF trajectory: every message it ever held (from its append-only log, so what a
// compaction summarised is still there, followed by the summary as a system step), its sub-agent tasks'
// sessions embedded as subagent_trajectories (each referenced from the task call's observation), and the
// totals. The agent's version comes from the caller: this layer does not read package.json.
import { ATIF_VERSION, type AtifStep, AtifTrajectory } from "../contract/atif.ts";
import { UserError } from "../contract/errors.ts";
import type { SessionMeta } from "../contract/session.ts";
import { compactionsReport } from "../session/compaction-report.ts";
import { allMessages } from "../session/recover.ts";
import { Session } from "../session/session.ts";
import { listSessions } from "../session/store.ts";
import { atifSteps, type SubagentIds } from "./export-atif-steps.ts";

export interface AtifOptions {
  dataDir: string;
  /** `i`'s version, for agent.version */
  version: string;
}

/** Tasks deeper than this are referenced, not embedded (a hand-made parent cycle must end). */
const MAX_DEPTH = 8;

function finalMetrics(steps: readonly AtifStep[], subs: readonly AtifTrajectory[]) {
  let prompt = 0;
  let completion = 0;
  let cached = 0;
  let cost = 0;
  let priced = true;
  for (const s of steps) {
    if (!s.metrics) continue;
    prompt += s.metrics.prompt_tokens ?? 0;
    completion += s.metrics.completion_tokens ?? 0;
    cached += s.metrics.cached_tokens ?? 0;
    if (s.metrics.cost_usd === undefined) priced = false;
    else cost += s.metrics.cost_usd;
  }
  for (const t of subs) {
    const f = t.final_metrics;
    prompt += f?.total_prompt_tokens ?? 0;
    completion += f?.total_completion_tokens ?? 0;
    cached += f?.total_cached_tokens ?? 0;
    if (f?.total_cost_usd === undefined) priced = priced && (f?.total_prompt_tokens ?? 0) === 0;
    else cost += f.total_cost_usd;
  }
  return {
    total_prompt_tokens: prompt,
    total_completion_tokens: completion,
    total_cached_tokens: cached,
    ...(priced ? { total_cost_usd: Math.round(cost * 1e8) / 1e8 } : {}),
    total_steps: steps.length,
    // Sub-agents' tokens and cost are in the totals above; their steps are counted in their own.
    ...(subs.length ? { extra: { includes_subagents: subs.length } } : {}),
  };
}

function build(
  session: Session,
  opts: AtifOptions,
  family: readonly SessionMeta[],
  depth: number,
): AtifTrajectory {
  const meta = session.meta;
  const children =
    depth < MAX_DEPTH ? family.filter((m) => m.parent?.session_id === meta.id && m.id !== meta.id) : [];
  const subs: AtifTrajectory[] = [];
  const ids = new Map<string, { trajectory_id: string; session_id: string }>();
  for (const c of children) {
    const child = build(Session.open(opts.dataDir, c.id), opts, family, depth + 1);
    subs.push(child);
    ids.set((c.parent as NonNullable<SessionMeta["parent"]>).call_id, {
      trajectory_id: child.trajectory_id as string,
      session_id: c.id,
    });
  }
  const steps = atifSteps({
    messages: allMessages(session.dir),
    compactions: compactionsReport(meta.id, session.compactionLog()).compactions,
    subagents: ids as SubagentIds,
    ...(meta.model ? { model: meta.model } : {}),
  });
  return {
    schema_version: ATIF_VERSION,
    session_id: meta.id,
    trajectory_id: meta.id,
    agent: {
      name: "i",
      version: opts.version || "unknown",
      ...(meta.model ? { model_name: meta.model } : {}),
      extra: {
        ...(meta.provider ? { provider: meta.provider } : {}),
        workspace: meta.workspace,
        ...(meta.parent ? { subagent: meta.parent.agent, parent_session_id: meta.parent.session_id } : {}),
      },
    },
    steps,
    final_metrics: finalMetrics(steps, subs),
    ...(meta.compactions > 0
      ? {
          notes: `${meta.compactions} compaction(s): each summary is a system step after the messages it summarised`,
        }
      : {}),
    ...(subs.length ? { subagent_trajectories: subs } : {}),
  };
}

/** Session `id` as an ATIF trajectory, checked against the contract before anything is written. */
export function sessionTrajectory(id: string, opts: AtifOptions): AtifTrajectory {
  const session = Session.open(opts.dataDir, id);
  const family = listSessions(opts.dataDir, session.meta.workspace);
  const t = build(session, opts, family, 0);
  const checked = AtifTrajectory.safeParse(t);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new UserError(
      `session ${id}: its ATIF trajectory does not validate (${issue?.path.join(".")}: ${issue?.message}); please report this`,
    );
  }
  return t;
}

/** The trajectory as the file holds it. */
export function trajectoryText(t: AtifTrajectory): string {
  return `${JSON.stringify(t, null, 2)}\n`;
}
