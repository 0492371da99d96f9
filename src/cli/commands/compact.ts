// `i compact`: compact a saved session now (manual trigger), through the same pipeline as automatic runs.
import { UserError } from "../../contract/errors.ts";
import type { AgentEvent } from "../../contract/events.ts";
import { inertJson, sanitize } from "../../terminal/sanitize.ts";
import { defineSubcommand } from "../command.ts";
import { TARGET_ARGS, targetFlags } from "../target-args.ts";

/** `--undo` alone is the last compaction, with `--compaction N` compaction N; without --undo: undefined. */
function parseUndo(undo: boolean | undefined, n: string | undefined): number | "last" | undefined {
  if (n !== undefined && !undo) throw new UserError("i compact: --compaction N goes with --undo");
  if (!undo) return undefined;
  if (n === undefined) return "last";
  if (!/^\d+$/.test(n) || Number(n) < 1)
    throw new UserError(
      `i compact: --compaction takes a compaction number (see i sessions --compactions ID), not "${sanitize(n)}"`,
    );
  return Number(n);
}

async function restore(
  rt: Awaited<ReturnType<typeof import("../../agent/setup.ts").setupAgent>>,
  undo: number | "last" | undefined,
  redo: boolean,
): Promise<number> {
  const r = redo ? rt.agent.recompact() : await rt.agent.uncompact(undo === "last" ? undefined : undo);
  if (!r.ok) {
    process.stderr.write(
      `i compact: nothing restored in session ${sanitize(rt.session.id)}: ${sanitize(r.why)}\n`,
    );
    return 1;
  }
  process.stdout.write(
    redo
      ? `session ${sanitize(rt.session.id)}: compaction ${r.compaction} is back (${-r.messages} messages fewer)\n`
      : `session ${sanitize(rt.session.id)}: restored the history before compaction ${r.compaction} (${r.messages} more messages, about ${r.tokens} tokens); undo with i compact --redo\n`,
  );
  return 0;
}

export const command = defineSubcommand(
  {
    name: "i compact",
    description: "Compact a saved session now",
    args: {
      resume: {
        type: "string",
        alias: "r",
        valueHint: "id",
        description: "session id (default: newest of this workspace)",
      },
      instructions: { type: "string", valueHint: "text", description: "extra instructions for the summary" },
      undo: {
        type: "boolean",
        description:
          "undo the last compaction instead (or --compaction N): its history comes back with what came after, when it fits the model",
      },
      compaction: {
        type: "string",
        valueHint: "N",
        description: "with --undo: which compaction (see i sessions --compactions ID)",
      },
      redo: { type: "boolean", description: "undo the last --undo: the compacted history comes back" },
      ...TARGET_ARGS,
      json: { type: "boolean", description: "print events as NDJSON" },
    },
  },
  async (args) => {
    const undo = parseUndo(args.undo, args.compaction);
    if (args.redo && undo !== undefined) throw new UserError("i compact: --undo and --redo go separately");
    if ((args.redo || undo !== undefined) && args.instructions !== undefined)
      throw new UserError("i compact: --instructions is for compacting, not with --undo or --redo");
    const { setupAgent } = await import("../../agent/setup.ts");
    let outcome: AgentEvent | undefined;
    const emit = (ev: AgentEvent) => {
      if (args.json) process.stdout.write(`${inertJson(JSON.stringify(ev))}\n`);
      if (ev.type === "compaction" && ev.phase !== "start") outcome = ev;
      // Warnings (e.g. a tool result shortened to fit the model before compacting) are for the user too.
      else if (!args.json && ev.type === "notice" && ev.level === "warn")
        process.stderr.write(`i: ${sanitize(ev.message)}\n`);
    };
    const rt = await setupAgent({
      ...targetFlags(args),
      resume: args.resume,
      requireExisting: true,
      keyOnlyWhenRequested: true,
      approve: "none",
      maxTurns: 1,
      emit,
    });
    try {
      if (undo !== undefined || args.redo) return await restore(rt, undo, Boolean(args.redo));
      if (rt.agent.history.length < 3)
        throw new UserError(`session ${rt.session.id} is too short to compact`);
      await rt.agent.compact(args.instructions);
      if (!args.json && outcome?.type === "compaction") {
        process.stdout.write(
          `compacted session ${sanitize(rt.session.id)}: ${outcome.before_tokens} → ${outcome.after_tokens} tokens (${outcome.route} summary); previous history kept in .precompact.json\n`,
        );
      }
      return 0;
    } catch (err) {
      if (err instanceof UserError) throw err;
      // The compactor found nothing worth compacting: not a failure of anything, and no error to decode.
      if (outcome?.type === "compaction" && outcome.phase === "skipped") {
        const why = outcome.error ? `: ${sanitize(outcome.error)}` : "";
        process.stderr.write(`i compact: nothing compacted${why}; the session is unchanged\n`);
        return 1;
      }
      process.stderr.write(`i compact: ${sanitize((err as Error).message)}; nothing was committed\n`);
      return 1;
    } finally {
      await rt.close();
    }
  },
);
