// Reads a hand-written (or previously generated) manifest: authoritative, used as-is, never rewritten.
import { resolve } from "node:path";
import { refuseCredentialArgv } from "../config/credentials.ts";
import { UserError } from "../contract/errors.ts";
import { type Manifest, Manifest as ManifestSchema } from "../contract/manifest.ts";
import { parseWith, readConfigJson } from "../lib/json-file.ts";

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
  return manifest;
}
