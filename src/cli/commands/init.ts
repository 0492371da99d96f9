// `i init`: create config_dir with commented defaults. Never overwrites an existing file; says which it kept.
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { configDir } from "../../config/paths.ts";
import { DEFAULT_REARM_RATIO, DEFAULT_TRIGGER_RATIO } from "../../contract/config.ts";
import { PROMPTS } from "../../contract/generated/prompts.ts";
import { writeFileAtomic } from "../../contract/lib/atomic-write.ts";
import { generateManifest } from "../../manifest/generate.ts";
import { defineSubcommand } from "../command.ts";

const SCHEMA_BASE = "https://i-agent.dev/schemas";

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function defaultFiles(dir: string): Record<string, string> {
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
    "desktop.json": json(
      generateManifest({ profile: "standard", configDir: dir, plugins: {}, bindings: {} }),
    ),
  };
}

export const command = defineSubcommand(
  {
    name: "i init",
    description: "Create config_dir with defaults; never overwrites an existing file",
    args: {},
  },
  async () => {
    const dir = configDir();
    mkdirSync(dir, { recursive: true });
    for (const [rel, text] of Object.entries(defaultFiles(dir))) {
      const path = join(dir, rel);
      if (existsSync(path)) {
        process.stdout.write(`kept    ${path} (exists)\n`);
        continue;
      }
      mkdirSync(dirname(path), { recursive: true });
      writeFileAtomic(path, text);
      process.stdout.write(`created ${path}\n`);
    }
    return 0;
  },
);
