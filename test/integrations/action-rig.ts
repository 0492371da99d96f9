// Runs the GitHub Action as a runner would — the bundled dist/index.js under node, inputs as INPUT_*
// variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files — or through @github/local-action, against the
// mock model (the `i` it runs is this checkout's CLI) and a local mock of the GitHub REST API.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Rig } from "../agent/rig.ts";
import { MAIN, ROOT, startProgram } from "../helpers/cli.ts";
import type { GithubMock } from "./github-api-mock.ts";

export interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

/** An `i` for the action's i_path input: this checkout's CLI under the test's Bun. */
export function iWrapper(dir: string): string {
  const file = join(dir, "i-wrapper.sh");
  writeFileSync(file, `#!/bin/sh\nexec "${process.execPath}" "${MAIN}" "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

/** Outputs from a GITHUB_OUTPUT file (`name<<DELIM` … `DELIM` blocks, as @actions/core writes them). */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i] as string);
    if (!m) continue;
    const end = lines.indexOf(m[2] as string, i + 1);
    out[m[1] as string] = lines.slice(i + 1, end).join("\n");
    i = end;
  }
  return out;
}

export interface ActionSetup {
  rig: Rig;
  github: GithubMock;
  inputs: Record<string, string>;
  event?: Record<string, unknown>;
  env?: Record<string, string>;
}

/** The step's environment: what the runner sets, plus the inputs (defaults from action.yml when unset). */
export function actionEnv(s: ActionSetup, dir: string): Record<string, string> {
  mkdirSync(dir, { recursive: true });
  const eventPath = join(dir, "event.json");
  writeFileSync(
    eventPath,
    JSON.stringify(s.event ?? { issue: { number: 7 }, comment: { body: "@i please look" } }),
  );
  const outputs = join(dir, "output.txt");
  const summary = join(dir, "summary.md");
  writeFileSync(outputs, "");
  writeFileSync(summary, "");
  const inputs: Record<string, string> = { approve: "none", comment: "off", install: "npm", ...s.inputs };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? dir,
    I_CONFIG_DIR: s.rig.configDir,
    GITHUB_API_URL: s.github.url,
    GITHUB_REPOSITORY: "octo/repo",
    GITHUB_EVENT_NAME: "issue_comment",
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_OUTPUT: outputs,
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_WORKSPACE: s.rig.workspace,
    RUNNER_TEMP: join(dir, "runner-temp"),
    RUNNER_TOOL_CACHE: join(dir, "tool-cache"),
    FORCE_COLOR: "0",
    NO_COLOR: "1",
    ...s.env,
  };
  mkdirSync(env.RUNNER_TEMP as string, { recursive: true });
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  return env;
}

function collect(dir: string, r: { code: number; stdout: string; stderr: string }): ActionRun {
  const outputs = parseOutputFile(readFileSync(join(dir, "output.txt"), "utf8"));
  // @github/local-action prints outputs as the old ::set-output lines instead of writing GITHUB_OUTPUT.
  for (const m of r.stdout.matchAll(/^::set-output name=([^:]+)::(.*)$/gm))
    outputs[m[1] as string] = m[2] as string;
  const summaryFile = join(dir, "summary.md");
  return { ...r, outputs, summary: existsSync(summaryFile) ? readFileSync(summaryFile, "utf8") : "" };
}

/** The bundle under node, as the runner's node24 runtime runs it. */
export async function runBundled(
  s: ActionSetup,
  dir: string,
  onStart?: (pid: number) => void,
): Promise<ActionRun> {
  const env = actionEnv(s, dir);
  const run = startProgram("node", [join(ROOT, "integrations", "action", "dist", "index.js")], {
    env,
    cwd: dir,
  });
  if (onStart && run.child.pid) onStart(run.child.pid);
  return collect(dir, await run.done);
}

/** The source through @github/local-action, GitHub's own local runner for actions. */
export async function runLocalAction(s: ActionSetup, dir: string): Promise<ActionRun> {
  const env = actionEnv(s, dir);
  const envFile = join(dir, "local.env");
  // local-action reads the inputs and GitHub variables from a dotenv file.
  writeFileSync(
    envFile,
    Object.entries(env)
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join("\n"),
  );
  const bin = join(ROOT, "node_modules", ".bin", "local-action");
  const run = startProgram(bin, ["run", ROOT, "integrations/action/src/main.ts", envFile], {
    // GITHUB_API_URL in the process too: local-action's Octokit stub reads it before the dotenv file.
    env: {
      PATH: env.PATH,
      HOME: env.HOME,
      GITHUB_API_URL: s.github.url,
      FORCE_COLOR: "0",
      NO_COLOR: "1",
      npm_config_update_notifier: "false",
    },
    cwd: ROOT,
  });
  return collect(dir, await run.done);
}
