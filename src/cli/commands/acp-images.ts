// Whether the model `i acp` starts sessions with takes images: what initialize says of image prompts.
import { type RunFlags, resolveTarget } from "../../agent/options.ts";
import { loadConfig } from "../../config/load.ts";
import { configDir } from "../../config/paths.ts";
import { resolveModel } from "../../provider/models.ts";

export function configuredImages(flags: RunFlags): boolean {
  try {
    const dir = configDir();
    const config = loadConfig(dir).config;
    const images = resolveModel(resolveTarget(flags, config).model, config, dir).images;
    return images === "keep" || images === "describe";
  } catch {
    // no model chosen yet, or a config problem: session/new says what is wrong; no images are promised
    return false;
  }
}
