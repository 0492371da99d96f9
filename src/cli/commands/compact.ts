// `i compact`: compact a saved session now (manual trigger), through the same pipeline as automatic runs.
import { UserError } from "../../contract/errors.ts";
import type { AgentEvent } from "../../contract/events.ts";
import { inertJson, sanitize } from "../../terminal/sanitize.ts";
import { defineSubcommand } from "../command.ts";
import { TARGET_ARGS, targetFlags } from "../target-args.ts";

export const command = defineSubcommand(
  {
    name: "i compact",
    description: "Compact a saved session now",
    args: {
      resume: { type: "string", alias: "r", description: "session id (default: newest of this workspace)" },
      instructions: { type: "string", description: "extra instructions for the summary" },
      ...TARGET_ARGS,
      json: { type: "boolean", description: "print events as NDJSON" },
    },
  },
  async (args) => {
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
      process.stderr.write(`i compact: ${sanitize((err as Error).message)}; nothing was committed\n`);
      return 1;
    } finally {
      await rt.close();
    }
  },
);
