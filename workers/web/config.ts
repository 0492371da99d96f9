// config_dir/web.json: settings of the web module. All optional; unknown keys are errors like every
// config_dir file, reported as one line naming the file and field. The schema and loader live in the
// contract so the core checks the file before it starts a session (and `i doctor` reports it per module).
import { loadWebFile } from "../../src/lib/config-files.ts";

export interface WebSettings {
  allowPrivate: boolean;
  searchEndpoint: string | undefined;
  timeoutMs: number;
  maxBytes: number;
}

/** web.json from `configDir`, with defaults. Throws a UserError (one clear line) when it is invalid. */
export function loadWebSettings(configDir: string): WebSettings {
  const web = loadWebFile(configDir);
  return {
    allowPrivate: web.allow_private ?? false,
    searchEndpoint: web.search_endpoint,
    timeoutMs: web.timeout_ms ?? 10_000,
    maxBytes: web.max_bytes ?? 1024 * 1024,
  };
}
