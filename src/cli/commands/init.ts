// `i init`: create config_dir with commented defaults. Never overwrites an existing file; says which it kept.
// desktop.json is written last, from the bindings and profile now in config_dir (existing ones included).
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadBindingsFile, loadPluginsFile } from "../../config/load.ts";
import { configDir, refuseBadDirs } from "../../config/paths.ts";
import { DEFAULT_REARM_RATIO, DEFAULT_TRIGGER_RATIO } from "../../contract/config.ts";
import { UserError } from "../../contract/errors.ts";
import { PROMPTS } from "../../contract/generated/prompts.ts";
import { writeFileAtomic } from "../../lib/atomic-write.ts";
import { generateManifest } from "../../manifest/generate.ts";
import { defineSubcommand } from "../command.ts";

const SCHEMA_BASE = "https://i-agent.dev/schemas";

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function defaultFiles(): Record<string, string> {
  return {
    "config.json": json({
      $schema: `${SCHEMA_BASE}/config.json`,
      $comment:
        'provider: openai | anthropic | responses; base_url for Ollama, vLLM, LM Studio, OpenRouter; models overrides the built-in table, e.g. {"my-model":{"context_window":32768,"max_output_tokens":4096}}',
      provider: "openai",
      models: {},
    }),
    "plugins.json": json({
      $schema: `${SCHEMA_BASE}/plugins.json`,
      $comment:
        "portable: choose a profile and disable modules by name; executable paths belong in bindings.json",
      profile: "standard",
      disabled: [],
    }),
    "bindings.json": json({
      $schema: `${SCHEMA_BASE}/bindings.json`,
      $comment:
        'host-specific: replace a module with your own worker, e.g. "compact": {"exec": ["/abs/path/my-compactor", "--opt"], "cwd": "/abs/dir"}',
    }),
    "compact.json": json({
      $schema: `${SCHEMA_BASE}/compact.json`,
      $comment:
        "built-in compaction policy: keep_recent 1..10000 (a minimum; whole tool batches are kept); images keep | omit | describe (absent: the model's setting); prompt is relative to this file, at most 32000 characters, {{workspace}} is substituted",
      enabled: true,
      keep_recent: 4,
      prompt: "prompts/compact.txt",
    }),
    "budget.json": json({
      $schema: `${SCHEMA_BASE}/budget.json`,
      $comment:
        "compaction is recommended at trigger_ratio of the hard limit (context window minus reserve_tokens) and re-armed below rearm_ratio",
      trigger_ratio: DEFAULT_TRIGGER_RATIO,
      rearm_ratio: DEFAULT_REARM_RATIO,
    }),
    "prompts/compact.txt": PROMPTS.compact,
  };
}

/**
 * desktop.json as the current plugins.json and bindings.json generate it (read after the defaults are
 * written, so an existing bindings.json with a replacement compactor is in it). Packaged desktop launches
 * use this file as-is; `i doctor` says when it no longer matches.
 */
export function desktopManifest(dir: string): string {
  const plugins = loadPluginsFile(dir);
  return json(generateManifest({ configDir: dir, plugins, bindings: loadBindingsFile(dir) }));
}

export const command = defineSubcommand(
  {
    name: "i init",
    description:
      "Create the config directory (I_CONFIG_DIR, default ~/.i/config) with defaults; never overwrites an existing file",
    args: {},
  },
  async () => {
    const dir = configDir();
    refuseBadDirs(["I_CONFIG_DIR"]);
    mkdirSync(dir, { recursive: true });
    // Plain writes, not consola: "created/kept PATH" is a listing scripts read line by line, and consola's
    // reporter would prefix badges that differ between a TTY and CI.
    for (const [rel, text] of Object.entries(defaultFiles())) {
      const path = join(dir, rel);
      if (existsSync(path)) {
        process.stdout.write(`kept    ${path} (exists)\n`);
        continue;
      }
      mkdirSync(dirname(path), { recursive: true });
      writeFileAtomic(path, text);
      process.stdout.write(`created ${path}\n`);
    }
    const desktop = join(dir, "desktop.json");
    if (existsSync(desktop)) {
      process.stdout.write(`kept    ${desktop} (exists; \`i doctor\` says whether it is current)\n`);
      return 0;
    }
    try {
      writeFileAtomic(desktop, desktopManifest(dir));
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      throw new UserError(
        `${err.message} (desktop.json was not written: fix this, then run \`i init\` again)`,
      );
    }
    process.stdout.write(`created ${desktop} (from the current bindings)\n`);
    return 0;
  },
);
