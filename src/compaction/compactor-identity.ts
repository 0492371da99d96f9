// Which compactor a session's automatic compactions ran with, as a short fingerprint saved with the
// circuit breaker: a session paused after repeated failures of one compactor compacts again once the
// compactor is a different one (another binding, or the built-in one with another configuration),
// instead of staying paused until a manual compaction succeeds.
import { createHash } from "node:crypto";
import { dirname, resolve } from "node:path";
import type { Manifest } from "../contract/manifest.ts";
import { readRegularFile } from "../lib/regular-file.ts";
import { MAX_TEXT_FILE_BYTES } from "../lib/text-files.ts";

/** The events whose modules make up the compactor. */
const COMPACTION_EVENTS = [
  "compact_plan",
  "before_compact",
  "after_compact",
  "before_compact_commit",
] as const;

function readOrEmpty(path: string): string {
  try {
    // Module files and the prompts they name are the user's: read only as regular files, capped.
    return readRegularFile(path, MAX_TEXT_FILE_BYTES, "a compactor file") ?? "";
  } catch {
    return "";
  }
}

/** The built-in compactor's configuration as it is on disk: compact.json and the prompt file it names. */
function builtinConfig(configDir: string): string {
  const file = resolve(configDir, "compact.json");
  const text = readOrEmpty(file);
  let prompt = "";
  try {
    const p = (JSON.parse(text) as { prompt?: unknown }).prompt;
    if (typeof p === "string") prompt = readOrEmpty(resolve(dirname(file), p));
  } catch {
    // Absent or not JSON: the run's own config check has said so; the text alone identifies it.
  }
  return `${text}\u0000${prompt}`;
}

/**
 * A fingerprint of the modules that handle the compaction events and of what configures them. A built-in
 * module is named, not its argv (the running executable's path differs between an install and a source
 * checkout, and is not a different compactor); a bound one by its argv and working directory.
 */
export function compactorIdentity(manifest: Manifest, configDir: string): string {
  const parts: unknown[] = [];
  let builtin = false;
  for (const event of COMPACTION_EVENTS) {
    for (const ref of manifest.hooks[event] ?? []) {
      parts.push(ref.builtin ? [event, ref.module] : [event, ref.module, ref.exec, ref.cwd]);
      if (ref.builtin && ref.module === "compact") builtin = true;
    }
  }
  const h = createHash("sha256").update(JSON.stringify(parts));
  if (builtin) h.update(builtinConfig(configDir));
  return h.digest("hex").slice(0, 16);
}
