// Manifest generation: profile + plugins.json + bindings.json → manifest (which module serves each hook and tool).

import type { BindingsFile, PluginsFile } from "../contract/config.ts";
import { UserError } from "../contract/errors.ts";
import type { Manifest, ManifestModule } from "../contract/manifest.ts";
import { DEFAULT_PROFILE, PROFILE_NAMES, profileModules } from "../contract/profiles.ts";
import { PROTOCOL_VERSION } from "../contract/protocol.ts";
import { MODULES, moduleToolDecls } from "../contract/registry.ts";
import { selfArgv } from "../runtime/runtime.ts";

export interface GenerateOptions {
  profile?: string;
  configDir: string;
  plugins: PluginsFile;
  bindings: BindingsFile;
  /** argv prefix that re-runs this program; defaults to the running executable */
  self?: string[];
}

export function generateManifest(opts: GenerateOptions): Manifest {
  const profile = opts.profile ?? opts.plugins.profile ?? DEFAULT_PROFILE;
  const members = profileModules(profile);
  // plugins.json's profile was checked when the file was loaded: an unknown one here came from --profile.
  if (!members)
    throw new UserError(`--profile: unknown profile "${profile}"; use one of: ${PROFILE_NAMES.join(", ")}`);
  const disabled = new Set(opts.plugins.disabled ?? []);
  const chosen = members.filter((m) => !disabled.has(m));

  // Built-in modules that are not rebound share one worker process (`i worker a,b,c`) to keep memory low;
  // a bound module always runs alone with exactly the argv the user gave. (No profile lists steering: the
  // console adds it, alone, with its queue — see steering.ts.)
  // A module that needs a process of its own (ownProcess) gets one even when built in.
  const builtins = chosen.filter((m) => !opts.bindings[m] && !MODULES[m].ownProcess);
  const self = opts.self ?? selfArgv();
  const sharedExec = [...self, "worker", builtins.join(",")];
  const execOf = (name: (typeof chosen)[number]) =>
    MODULES[name].ownProcess ? [...self, "worker", name] : sharedExec;

  const modules: ManifestModule[] = chosen.map((name) => {
    const bound = opts.bindings[name];
    return {
      name,
      builtin: !bound,
      exec: bound ? [...bound.exec] : execOf(name),
      cwd: bound?.cwd ?? opts.configDir,
      hooks: [...MODULES[name].hooks],
      tools: moduleToolDecls(name),
    };
  });

  const hooks: Manifest["hooks"] = {};
  const tools: Manifest["tools"] = {};
  for (const m of modules) {
    const ref = { module: m.name, exec: m.exec, cwd: m.cwd, builtin: m.builtin };
    for (const h of m.hooks) {
      const list = hooks[h] ?? [];
      list.push(ref);
      hooks[h] = list;
    }
    for (const t of m.tools)
      tools[t.name] = { ...ref, description: t.description, input_schema: t.input_schema };
  }
  return { protocol: PROTOCOL_VERSION, profile, config_dir: opts.configDir, modules, hooks, tools };
}
