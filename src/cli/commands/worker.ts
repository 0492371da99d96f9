// `i worker MODULE[,MODULE…]`: run built-in modules as one NDJSON worker on stdio. Started by the host for every
// built-in module, so it stays lean: the module code and the SDK are imported only after the names check out.

import { UserError } from "../../contract/errors.ts";
import { youngCollector } from "../../runtime/runtime.ts";
import { defineSubcommand } from "../command.ts";

/**
 * A collection when the worker is idle, at most this often. Each request leaves history-sized garbage
 * (the hook data, the reply) that the engine would otherwise keep until its heap had grown: collected
 * while the core is busy elsewhere, S1 tree PSS 69.6 -> 67.5 MB (68.0 with the worker's first 100 ms left
 * alone). A young-generation collection (runtime.youngCollector) frees the same (S1 64.4 vs 64.7 MB with
 * a full one, same run): a full one marked the whole heap every 100 ms of a busy session.
 */
const GC_EVERY_MS = 100;

/** `fn` at most once per `everyMs`, counted from now: nothing in the first `everyMs` (a worker's start). */
function throttled(fn: () => void, everyMs: number): () => void {
  let last = Date.now();
  return () => {
    const now = Date.now();
    if (now - last < everyMs) return;
    last = now;
    fn();
  };
}

export const command = defineSubcommand(
  {
    name: "i worker",
    description: "Run built-in modules as an NDJSON worker on stdio",
    args: {
      modules: { type: "positional", description: "module name(s), comma-separated", required: true },
      // Appended by the console for the steering module, which reads it from argv (workers/steering/README.md).
      queue: { type: "string", valueHint: "file", description: "steering queue file (JSON lines)" },
    },
  },
  async (args) => {
    const [{ MODULE_NAMES, isModuleName }, { serveBuiltins }] = await Promise.all([
      import("../../contract/registry.ts"),
      import("../../../workers/registry.ts"),
    ]);
    const names = String(args.modules).split(",");
    const seen = new Set<string>();
    for (const name of names) {
      if (!isModuleName(name)) {
        const shown = name === "" ? "an empty module name" : `unknown module "${name}"`;
        throw new UserError(`i worker: ${shown}; built-in modules are: ${MODULE_NAMES.join(", ")}`);
      }
      if (seen.has(name))
        throw new UserError(`i worker: module "${name}" is listed twice; name each module once`);
      seen.add(name);
    }
    const collect = await youngCollector();
    await serveBuiltins(names.filter(isModuleName), { idle: throttled(collect, GC_EVERY_MS) });
    return 0;
  },
);
