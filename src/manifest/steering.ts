// The console's steering dependency (the console always needs it): injected whatever the profile — and whatever a loaded
// manifest lists — with `--queue PATH` appended to its argv. Which worker runs it: the steering module a
// (hand-written) manifest lists, else the replacement bindings.json binds, else the built-in one. The
// built-in one joins the process that already serves the other built-in modules (one process less, some
// 40 MB of memory less), or runs alone when there is none.
import type { Binding } from "../contract/config.ts";
import type { BindingRef, Manifest } from "../contract/manifest.ts";
import { selfArgv } from "../runtime/runtime.ts";

export interface SteeringOptions {
  /** bindings.json's `steering` entry, used when the manifest lists no steering module */
  binding?: Binding | undefined;
  /** argv prefix that re-runs this program; defaults to the running executable */
  self?: string[];
}

type Exec = readonly string[];
const sameExec = (a: Exec, b: Exec) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The argv of the shared built-in process (`… worker a,b,c`), if the manifest has one. */
function sharedBuiltinExec(manifest: Manifest): Exec | undefined {
  const m = manifest.modules.find((x) => x.builtin && x.exec.at(-2) === "worker");
  return m?.exec;
}

/** A copy of `manifest` whose steering module reads `queue`. The input is not modified. */
export function withSteering(manifest: Manifest, queue: string, opts: SteeringOptions = {}): Manifest {
  const existing = manifest.modules.find((m) => m.name === "steering");
  const shared = existing || opts.binding ? undefined : sharedBuiltinExec(manifest);
  // The argv to replace (the steering entry's own, or the shared process's) and what replaces it.
  const from: Exec | undefined = existing?.exec ?? shared;
  const base = existing ?? {
    exec:
      opts.binding?.exec ??
      (shared
        ? [...shared.slice(0, -1), `${shared.at(-1)},steering`]
        : [...(opts.self ?? selfArgv()), "worker", "steering"]),
    cwd: opts.binding?.cwd ?? manifest.config_dir,
    builtin: !opts.binding,
  };
  const exec = [...base.exec, "--queue", queue];
  const swap = <T extends { exec: string[] }>(x: T): T =>
    from && sameExec(x.exec, from) ? { ...x, exec } : x;
  const ref: BindingRef = { module: "steering", exec, cwd: base.cwd, builtin: base.builtin };
  const modules = manifest.modules.map(swap);
  if (!existing)
    modules.push({ name: "steering", builtin: ref.builtin, exec, cwd: ref.cwd, hooks: ["steer"], tools: [] });
  const hooks: Manifest["hooks"] = {};
  for (const [event, refs] of Object.entries(manifest.hooks)) hooks[event] = refs.map(swap);
  if (!existing) hooks.steer = [...(hooks.steer ?? []), ref];
  const tools: Manifest["tools"] = {};
  for (const [name, t] of Object.entries(manifest.tools)) tools[name] = swap(t);
  return { ...manifest, modules, hooks, tools };
}
