// Reads a hand-written (or previously generated) manifest: authoritative, used as-is, never rewritten.
import { resolve } from "node:path";
import { refuseCredentialArgv } from "../config/credentials.ts";
import { UserError } from "../contract/errors.ts";
import { type Manifest, Manifest as ManifestSchema } from "../contract/manifest.ts";
import { CORE_TOOL_NAMES } from "../contract/registry.ts";
import { parseWith, readConfigJson } from "../lib/json-file.ts";

/**
 * Each tool name has one owner: a core tool's name is the core's (a worker cannot shadow read, write,
 * edit, apply_patch or bash), and no two module entries may list the same tool. The first offence, or
 * undefined.
 */
function toolNameProblem(manifest: Manifest): string | undefined {
  const owner = new Map<string, string>();
  for (const [i, m] of manifest.modules.entries()) {
    for (const [j, t] of m.tools.entries()) {
      const where = `modules[${i}].tools[${j}]`;
      if (CORE_TOOL_NAMES.includes(t.name))
        return `${where}: "${t.name}" is the name of a core tool; a worker cannot serve a tool named like one (rename or remove it)`;
      const first = owner.get(t.name);
      if (first !== undefined)
        return `${where}: the tool "${t.name}" is listed twice (first at ${first}); each tool has one module (remove one)`;
      owner.set(t.name, where);
    }
  }
  for (const name of Object.keys(manifest.tools))
    if (CORE_TOOL_NAMES.includes(name))
      return `tools.${name}: "${name}" is the name of a core tool; a worker cannot serve a tool named like one (remove the entry)`;
  return undefined;
}

export function loadManifestFile(path: string): Manifest {
  const file = resolve(path);
  const raw = readConfigJson(file, "regenerate it with `i --runtime manifest PROFILE`");
  if (raw === undefined)
    throw new UserError(
      `--manifest: "${file}" does not exist; generate one with \`i --runtime manifest PROFILE\``,
    );
  const manifest = parseWith(file, ManifestSchema, raw);
  // Authoritative, but not above the rule bindings.json follows: no credential in a worker's argv (the
  // host's checks make every hook and tool entry use its module's exec, so the modules are enough).
  for (const [i, m] of manifest.modules.entries()) refuseCredentialArgv(file, `modules[${i}].exec`, m.exec);
  const problem = toolNameProblem(manifest);
  if (problem) throw new UserError(`${file}: ${problem}`);
  return manifest;
}
