// `/model`: which models the session may switch to, and the switch itself (recorded in the session, so
// -c/-r resume with it). Apart from the facade: it reads config.json and asks the provider.
import { loadConfig } from "../config/load.ts";
import { configDir } from "../config/paths.ts";
import { MODEL_TABLE } from "../provider/model-table.ts";
import { resolveModel } from "../provider/models.ts";
import type { ModelChoice, ModelInfo } from "./session-types.ts";
import type { AgentRuntime } from "./setup.ts";

/**
 * The models /model offers: config.json's, the provider's own list (when it answers in time), and the
 * built-in table, each once, with its window and price when known; `source` says where it came from.
 */
export async function modelChoices(rt: AgentRuntime): Promise<ModelChoice[]> {
  const cfgDir = configDir();
  const config = loadConfig(cfgDir).config;
  const served = await rt.listModels();
  const seen = new Set<string>();
  const out: ModelChoice[] = [];
  const add = (name: string, source: ModelChoice["source"]) => {
    if (seen.has(name)) return;
    seen.add(name);
    let info: ModelInfo | undefined;
    try {
      info = resolveModel(name, config, cfgDir);
    } catch {
      info = undefined;
    }
    out.push({
      name,
      source,
      ...(info?.context_window ? { context_window: info.context_window } : {}),
      ...(info?.price ? { price: info.price } : {}),
    });
  };
  for (const name of Object.keys(config.models ?? {})) add(name, "config");
  for (const name of served) add(name, "provider");
  for (const name of Object.keys(MODEL_TABLE)) add(name, "built-in");
  return out;
}

/** Switch the model for the next request (recorded in the session); throws on a name that is no model. */
export function switchModel(rt: AgentRuntime, name: string): ModelInfo {
  const cfgDir = configDir();
  const next = resolveModel(name, loadConfig(cfgDir).config, cfgDir);
  rt.agent.setModel(next);
  rt.session.recordModel(next.name, rt.provider, rt.baseUrl);
  return next;
}
