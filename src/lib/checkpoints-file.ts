// config_dir/checkpoints.json, read and checked before a session starts (a mistake is one line, exit 2)
// and by `i doctor`.
import { join } from "node:path";
import { CHECKPOINT_DEFAULTS, CheckpointsFile, type CheckpointsPolicy } from "../contract/checkpoints.ts";
import { parseWith, readConfigJson } from "./json-file.ts";

export const CHECKPOINTS_FILE = "checkpoints.json";

export function loadCheckpointsPolicy(configDir: string): CheckpointsPolicy {
  const file = join(configDir, CHECKPOINTS_FILE);
  const f = parseWith(file, CheckpointsFile, readConfigJson(file) ?? {});
  return {
    enabled: f.enabled ?? CHECKPOINT_DEFAULTS.enabled,
    max_file_bytes: f.max_file_bytes ?? CHECKPOINT_DEFAULTS.max_file_bytes,
    max_store_bytes: f.max_store_bytes ?? CHECKPOINT_DEFAULTS.max_store_bytes,
    max_files: f.max_files ?? CHECKPOINT_DEFAULTS.max_files,
    max_ms: f.max_ms ?? CHECKPOINT_DEFAULTS.max_ms,
  };
}
