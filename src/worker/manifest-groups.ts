// How the manifest's modules map onto processes, and whether a hand-written manifest holds together. Kept
// apart from the host: both are pure functions of the manifest, computed once when a host is built.
import type { Manifest, ManifestModule } from "../contract/manifest.ts";
import type { ModuleName } from "../contract/registry.ts";

/** One worker process as the manifest describes it: the modules it serves, how to start it. */
export interface Group {
  key: string;
  exec: string[];
  cwd: string;
  builtin: boolean;
  modules: ModuleName[];
}

export function groupsOf(manifest: Manifest): Map<ModuleName, Group> {
  const byKey = new Map<string, Group>();
  const byModule = new Map<ModuleName, Group>();
  for (const m of manifest.modules) {
    // Built-in modules with the same argv and cwd share a process; a bound module is always alone.
    const key = m.builtin ? `builtin\0${JSON.stringify(m.exec)}\0${m.cwd}` : `bound\0${m.name}`;
    let g = byKey.get(key);
    if (!g) {
      g = { key, exec: [...m.exec], cwd: m.cwd, builtin: m.builtin, modules: [] };
      byKey.set(key, g);
    }
    g.modules.push(m.name);
    byModule.set(m.name, g);
  }
  return byModule;
}

/** A hand-written manifest must route every hook and tool to a module it lists, with that module's binding. */
export function manifestProblem(
  manifest: Manifest,
  modules: Map<ModuleName, ManifestModule>,
): string | undefined {
  const refs = [
    ...Object.entries(manifest.hooks).flatMap(([h, list]) => list.map((r) => [`hooks.${h}`, r] as const)),
    ...Object.entries(manifest.tools).map(([t, r]) => [`tools.${t}`, r] as const),
  ];
  for (const [where, ref] of refs) {
    const m = modules.get(ref.module);
    if (!m) return `${where} names module "${ref.module}", which is not in "modules"`;
    if (JSON.stringify(m.exec) !== JSON.stringify(ref.exec) || m.cwd !== ref.cwd || m.builtin !== ref.builtin)
      return `${where}: the binding of module "${ref.module}" differs from its entry in "modules"`;
  }
  return undefined;
}
