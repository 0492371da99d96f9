// The console's steering dependency (seed 000): injected whatever the profile — and whatever a loaded
// manifest lists — with `--queue PATH` appended to its argv. Which worker runs it: the steering module a
// (hand-written) manifest lists, else the replacement bindings.json binds, else the built-in one, alone.
import type { Binding } from "../config/schemas.ts";
import { selfArgv } from "../runtime/runtime.ts";
import type { BindingRef, Manifest } from "./schema.ts";

export interface SteeringOptions {
  /** bindings.json's `steering` entry, used when the manifest lists no steering module */
  binding?: Binding | undefined;
  /** argv prefix that re-runs this program; defaults to the running executable */
  self?: string[];
}

/** A copy of `manifest` whose steering module reads `queue`. The input is not modified. */
export function withSteering(manifest: Manifest, queue: string, opts: SteeringOptions = {}): Manifest {
  const existing = manifest.modules.find((m) => m.name === "steering");
  const base = existing ?? {
    exec: opts.binding?.exec ?? [...(opts.self ?? selfArgv()), "worker", "steering"],
    cwd: opts.binding?.cwd ?? manifest.config_dir,
    builtin: !opts.binding,
  };
  const exec = [...base.exec, "--queue", queue];
  const ref: BindingRef = { module: "steering", exec, cwd: base.cwd, builtin: base.builtin };
  const modules = existing
    ? manifest.modules.map((m) => (m.name === "steering" ? { ...m, exec } : m))
    : [
        ...manifest.modules,
        { name: "steering" as const, builtin: ref.builtin, exec, cwd: ref.cwd, hooks: ["steer"], tools: [] },
      ];
  const hooks: Manifest["hooks"] = {};
  for (const [event, refs] of Object.entries(manifest.hooks))
    hooks[event] = refs.map((r) => (r.module === "steering" ? { ...r, exec } : r));
  if (!existing) hooks.steer = [...(hooks.steer ?? []), ref];
  return { ...manifest, modules, hooks };
}
