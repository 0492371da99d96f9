// Reads a hand-written (or previously generated) manifest: authoritative, used as-is, never rewritten.
import { resolve } from "node:path";
import { UserError } from "../cli/errors.ts";
import { parseWith, readJson } from "../config/json-file.ts";
import { type Manifest, Manifest as ManifestSchema } from "./schema.ts";

export function loadManifestFile(path: string): Manifest {
  const file = resolve(path);
  const raw = readJson(file);
  if (raw === undefined)
    throw new UserError(
      `--manifest: "${file}" does not exist; generate one with \`i --runtime manifest PROFILE\``,
    );
  return parseWith(file, ManifestSchema, raw);
}
