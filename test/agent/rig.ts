// A whole-agent test rig: temp workspace, config and data dirs, a mock model server, and the real CLI.
import { expect } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type MockScriptSource,
  type MockServer,
  type MockServerOptions,
  startMockServer,
} from "../fixtures/mock-server/index.ts";
import {
  type CliResult,
  type RunningCli,
  removeDir,
  runCliAsync,
  startCli,
  tempDir,
} from "../helpers/cli.ts";

export interface Rig {
  root: string;
  workspace: string;
  configDir: string;
  dataDir: string;
  mock: MockServer;
  env: Record<string, string>;
  /** --base-url, -m, --provider and --workspace for this rig, which run and start append */
  flags: string[];
  /** `i ARGS` with --base-url/-m/--workspace filled in */
  run(args: string[], extraEnv?: Record<string, string>): Promise<CliResult>;
  start(args: string[], extraEnv?: Record<string, string>): RunningCli;
  close(): Promise<void>;
}

export interface RigOptions {
  script: MockScriptSource;
  provider?: "openai" | "anthropic" | "responses" | "gemini" | "bedrock";
  /** more environment for every run (a cloud provider's credentials and region) */
  env?: Record<string, string>;
  /** default "mock-model"; its limits come from config.json `models` (contextWindow) */
  model?: string;
  contextWindow?: number;
  profile?: string;
  files?: Record<string, string>;
  config?: Record<string, unknown>;
  /** the models the mock lists at GET /v1/models */
  served?: string[];
  /** Bedrock: the identity and region the mock verifies SigV4 signatures against */
  aws?: MockServerOptions["aws"];
}

const RIG_KEY_VAR: Record<NonNullable<RigOptions["provider"]>, string> = {
  openai: "OPENAI_API_KEY",
  responses: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  gemini: "GEMINI_API_KEY",
  bedrock: "I_RIG_UNUSED_KEY",
};

export async function makeRig(opts: RigOptions): Promise<Rig> {
  const root = tempDir("i-agent-");
  const workspace = join(root, "ws");
  const configDir = join(root, "cfg");
  const dataDir = join(root, "data");
  for (const d of [workspace, configDir, dataDir]) mkdirSync(d, { recursive: true });
  for (const [name, text] of Object.entries(opts.files ?? {})) {
    mkdirSync(join(workspace, name, ".."), { recursive: true });
    writeFileSync(join(workspace, name), text);
  }
  writeFileSync(
    join(configDir, "config.json"),
    JSON.stringify({
      models: {
        [opts.model ?? "mock-model"]: {
          context_window: opts.contextWindow ?? 100_000,
          max_output_tokens: 4096,
        },
      },
      ...opts.config,
    }),
  );
  if (opts.profile) writeFileSync(join(configDir, "plugins.json"), JSON.stringify({ profile: opts.profile }));
  const mock = await startMockServer({
    script: opts.script,
    ...(opts.served ? { models: opts.served } : {}),
    ...(opts.aws ? { aws: opts.aws } : {}),
  });
  const provider = opts.provider ?? "openai";
  const env: Record<string, string> = {
    I_CONFIG_DIR: configDir,
    I_DATA_DIR: dataDir,
    [RIG_KEY_VAR[provider]]: "sk-test-key-not-real-0000000000",
    ...opts.env,
  };
  const flags = [
    "--base-url",
    mock.url,
    "-m",
    opts.model ?? "mock-model",
    "--provider",
    provider,
    "--workspace",
    workspace,
  ];
  return {
    root,
    workspace,
    configDir,
    dataDir,
    mock,
    env,
    flags,
    run: (args, extra = {}) => runCliAsync([...args, ...flags], { ...env, ...extra }),
    start: (args, extra = {}) => startCli([...args, ...flags], { ...env, ...extra }),
    async close() {
      await mock.close();
      removeDir(root);
    },
  };
}

/** Parse `--json` output into events. */
export function events(stdout: string): Array<Record<string, unknown> & { type: string }> {
  return stdout
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
}

/**
 * The `--json` events of a long run that had to compact: it finished with `finalText`, compacted at least
 * `minCompactions` times (one summary each, no failure), and no request was over the hard limit.
 */
export function expectCompactedRun(
  stdout: string,
  want: { finalText: string; minCompactions: number; summaries: number },
): Array<Record<string, unknown> & { type: string }> {
  const evs = events(stdout);
  expect(evs.at(-1)).toMatchObject({ type: "done", text: want.finalText });
  const done = evs.filter((e) => e.type === "compaction" && e.phase === "done");
  expect(done.length).toBeGreaterThanOrEqual(want.minCompactions);
  expect(evs.some((e) => e.type === "compaction" && e.phase === "failed")).toBe(false);
  expect(want.summaries).toBe(done.length);
  for (const e of evs.filter((x) => x.type === "budget"))
    expect(e.total as number).toBeLessThanOrEqual(e.hard_limit as number);
  return evs;
}
