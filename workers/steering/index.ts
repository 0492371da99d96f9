// The steering module: on `steer`, hands the core the messages the user typed while the turn ran.
import { resolve } from "node:path";
import { SteerData } from "../../src/contract/steering.ts";
import { defineWorkerModule } from "../sdk/module.ts";
import { takeQueued } from "./queue.ts";

/** The queue path from `--queue PATH` (or `--queue=PATH`) in argv, resolved; undefined when absent. */
export function queueFromArgv(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--queue" && argv[i + 1]) return resolve(argv[i + 1] as string);
    if (a.startsWith("--queue=") && a.length > 8) return resolve(a.slice(8));
  }
  return undefined;
}

export function createSteeringModule(queue = queueFromArgv(process.argv)) {
  return defineWorkerModule({
    name: "steering",
    hooks: {
      steer: (data, ctx) => {
        if (queue === undefined) {
          throw new Error("steering: no queue file; start the worker with --queue PATH");
        }
        const parsed = SteerData.safeParse(data);
        if (!parsed.success) throw new Error("steering: steer data.messages must be an array");
        const fresh = takeQueued(queue, ctx.log);
        if (fresh.length === 0) return data;
        return { ...data, messages: [...(parsed.data.messages ?? []), ...fresh] };
      },
    },
  });
}
