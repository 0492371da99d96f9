// The console's steering dependency (seed 000): injected whatever the profile — and whatever a loaded
// manifest lists — with `--queue PATH` appended to its argv. A bound steering replacement keeps its own
// argv plus the queue; otherwise the built-in one runs alone.
import { selfArgv } from "../runtime/runtime.ts";
import type { BindingRef, Manifest } from "./schema.ts";

/** A copy of `manifest` whose steering module reads `queue`. The input is not modified. */
export function withSteering(manifest: Manifest, queue: string, self: string[] = selfArgv()): Manifest {
  const existing = manifest.modules.find((m) => m.name === "steering");
  const exec = [...(existing?.exec ?? [...self, "worker", "steering"]), "--queue", queue];
  const ref: BindingRef = {
    module: "steering",
    exec,
    cwd: existing?.cwd ?? manifest.config_dir,
    builtin: existing?.builtin ?? true,
  };
  const modules = existing
    ? manifest.modules.map((m) => (m.name === "steering" ? { ...m, exec } : m))
    : [
        ...manifest.modules,
        { name: "steering" as const, builtin: true, exec, cwd: ref.cwd, hooks: ["steer"], tools: [] },
      ];
  const hooks: Manifest["hooks"] = {};
  for (const [event, refs] of Object.entries(manifest.hooks))
    hooks[event] = refs.map((r) => (r.module === "steering" ? { ...r, exec } : r));
  if (!existing) hooks.steer = [...(hooks.steer ?? []), ref];
  return { ...manifest, modules, hooks };
}
