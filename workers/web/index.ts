// The web module: web_fetch always, web_search when web.json names a search endpoint.
import { MAX_WEB_FETCH_BYTES } from "../../src/contract/config.ts";
import { defineWorkerModule, toolError, toolText, type WorkerModule } from "../sdk/module.ts";
import { defineTool } from "../sdk/tool.ts";
import { workerConfigDir } from "../sdk/worker-env.ts";
import { loadWebSettings, type WebSettings } from "./config.ts";
import { FetchRefused, fetchPage } from "./fetch-page.ts";
import { pageText } from "./page-text.ts";
import { webSearch } from "./search.ts";

function failure(tool: string, err: unknown, timeoutMs: number): string {
  const e = err as Error;
  if (e.name === "TimeoutError" || e.name === "AbortError") return `${tool}: timed out after ${timeoutMs} ms`;
  const cause = (e as { cause?: { message?: string } }).cause?.message;
  return `${tool}: ${e.message}${cause && !e.message.includes(cause) ? ` (${cause})` : ""}`;
}

export function createWebModule(settings: WebSettings): WorkerModule {
  const tools: NonNullable<WorkerModule["tools"]> = [
    defineTool("web", "web_fetch", async (args) => {
      const maxBytes = Math.min(args.max_bytes ?? settings.maxBytes, settings.maxBytes, MAX_WEB_FETCH_BYTES);
      try {
        const page = await fetchPage(args.url, { ...settings, maxBytes });
        const result = pageText(page);
        if (!result.ok) return toolError(`web_fetch: ${result.reason}`);
        return result.isError ? toolError(result.text) : toolText(result.text);
      } catch (err) {
        if (err instanceof FetchRefused) return toolError(`web_fetch: refused: ${err.message}`);
        return toolError(failure("web_fetch", err, settings.timeoutMs));
      }
    }),
  ];
  const endpoint = settings.searchEndpoint;
  if (endpoint !== undefined) {
    tools.push(
      defineTool("web", "web_search", async (args) => {
        try {
          return toolText(await webSearch(endpoint, args.query, settings.timeoutMs));
        } catch (err) {
          return toolError(failure("web_search", err, settings.timeoutMs));
        }
      }),
    );
  }
  return defineWorkerModule({ name: "web", hooks: {}, tools });
}

/** The module as configured by config_dir/web.json (a UserError when that file is invalid). */
export function loadWebModule(configDir = workerConfigDir()): WorkerModule {
  return createWebModule(loadWebSettings(configDir));
}
