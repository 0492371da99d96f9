// config_dir/web.json: settings of the web module. All optional; unknown keys are errors like every
// config_dir file, reported as one line naming the file and field.
import { join } from "node:path";
import { z } from "zod";
import { parseWith, readConfigJson } from "../../src/config/json-file.ts";

/** Hard ceilings: the host's 15 s request deadline must never be reached by a fetch. */
export const MAX_TIMEOUT_MS = 14_000;
export const MAX_FETCH_BYTES = 10 * 1024 * 1024;

const httpUrl = z
  .string()
  .url()
  .refine((u) => /^https?:$/.test(new URL(u).protocol), "must be an http:// or https:// URL");

export const WebFile = z.strictObject({
  $schema: z.string().optional(),
  $comment: z.string().optional(),
  /** fetch private, loopback and link-local addresses too (off by default: they reach the local network) */
  allow_private: z.boolean().optional(),
  /** a SearXNG-style JSON search endpoint; enables the web_search tool */
  search_endpoint: httpUrl.optional(),
  /** per-request time limit in milliseconds (default 10000) */
  timeout_ms: z.number().int().min(100).max(MAX_TIMEOUT_MS).optional(),
  /** default and upper bound for bytes read from one response (default 1 MiB) */
  max_bytes: z.number().int().positive().max(MAX_FETCH_BYTES).optional(),
});
export type WebFile = z.infer<typeof WebFile>;

export interface WebSettings {
  allowPrivate: boolean;
  searchEndpoint: string | undefined;
  timeoutMs: number;
  maxBytes: number;
}

/** web.json from `configDir`, with defaults. Throws a UserError (one clear line) when it is invalid. */
export function loadWebSettings(configDir: string): WebSettings {
  const file = join(configDir, "web.json");
  const web = parseWith(file, WebFile, readConfigJson(file) ?? {});
  return {
    allowPrivate: web.allow_private ?? false,
    searchEndpoint: web.search_endpoint,
    timeoutMs: web.timeout_ms ?? 10_000,
    maxBytes: web.max_bytes ?? 1024 * 1024,
  };
}
