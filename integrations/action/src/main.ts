// The GitHub Action: read the inputs, get `i` (already there, npm, or the release archive), run
// `i -p --json` on the prompt with a readable job log, then set the outputs, write the session's Markdown
// export to the step summary, keep the sticky comment up to date, and fail the step with `i`'s own error
// line as an annotation when the run failed. `run()` is what the runner (through dist/index.js) and
// @github/local-action call.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as core from "@actions/core";
import { stickyComment } from "./comment.ts";
import { InputError, type Inputs, readInputs } from "./inputs.ts";
import { InstallError, installI } from "./install.ts";
import { inert, logLines, type StreamEvent } from "./log-lines.ts";
import { bashMissing } from "./preflight.ts";
import { runI } from "./run-i.ts";

function iArgs(inputs: Inputs, trajectory: string): string[] {
  return [
    "-p",
    "--json",
    "--trajectory",
    trajectory,
    "-m",
    inputs.model,
    ...(inputs.provider ? ["--provider", inputs.provider] : []),
    ...(inputs.baseUrl ? ["--base-url", inputs.baseUrl] : []),
    "--approve",
    inputs.approve,
    ...(inputs.sandbox ? ["--sandbox", inputs.sandbox] : []),
    ...inputs.args,
  ];
}

/** The child's environment: i's key as I_API_KEY; never the action's inputs or the GitHub token. */
function childEnv(inputs: Inputs, sessions: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith("INPUT_") && k !== "GITHUB_TOKEN" && k !== "ACTIONS_RUNTIME_TOKEN") env[k] = v;
  if (inputs.apiKey) env.I_API_KEY = inputs.apiKey;
  env.I_DATA_DIR = sessions;
  return env;
}

interface Seen {
  session?: string;
  done?: StreamEvent;
  error?: StreamEvent;
  steps: string[];
}

function costText(ev: StreamEvent | undefined): string {
  const c = ev?.cost_usd;
  return typeof c === "number" ? `$${c.toFixed(4)}` : "cost unknown (no price for the model)";
}

function progressBody(model: string, seen: Seen): string {
  const steps = seen.steps.slice(-8).map((s) => `- ${s}`);
  return [`**i** is working on it (${model})…`, "", ...steps].join("\n");
}

function finalBody(seen: Seen, failure: string | undefined): string {
  const ev = seen.done ?? seen.error;
  const facts = [
    costText(ev),
    `${ev?.turns ?? 0} model requests`,
    seen.session ? `session \`${seen.session}\`` : "",
  ];
  const head = failure ? `**i** failed: ${failure}` : String(seen.done?.text ?? "").trim() || "_(no answer)_";
  return `${head}\n\n---\n${facts.filter(Boolean).join(" · ")}`;
}

function summaryMarkdown(
  bin: string,
  env: NodeJS.ProcessEnv,
  session: string | undefined,
): string | undefined {
  if (!session) return undefined;
  const r = spawnSync(bin, ["sessions", "--export", session, "--format", "md"], { env, encoding: "utf8" });
  return r.status === 0 ? r.stdout : undefined;
}

/**
 * The action's own version: the package.json of the repository the action was checked out from (src/
 * and dist/ are both three folders below it), read at run time so the bundle does not embed it.
 */
function ownVersion(): string {
  const file = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "package.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

async function getI(inputs: Inputs): Promise<string> {
  if (inputs.binary) {
    if (!existsSync(inputs.binary))
      throw new InstallError(
        `i_path: ${inputs.binary} does not exist; give the path of an i executable, or leave i_path out`,
      );
    return inputs.binary;
  }
  return installI({
    version: inputs.version ?? ownVersion(),
    method: inputs.install,
    ...(inputs.releaseUrl ? { releaseUrl: inputs.releaseUrl } : {}),
    cacheDir: process.env.RUNNER_TOOL_CACHE ?? "",
    log: (l) => core.info(l),
  });
}

export async function run(): Promise<void> {
  let inputs: Inputs;
  let bin: string;
  try {
    inputs = readInputs((n) => core.getInput(n), process.env, process.env.GITHUB_WORKSPACE || process.cwd());
    if (inputs.apiKey) core.setSecret(inputs.apiKey);
    if (inputs.githubToken) core.setSecret(inputs.githubToken);
    const noBash = bashMissing();
    if (noBash) throw new InputError(noBash);
    bin = await getI(inputs);
  } catch (err) {
    if (err instanceof InputError || err instanceof InstallError) return core.setFailed(err.message);
    throw err;
  }
  const dir = mkdtempSync(join(process.env.RUNNER_TEMP || tmpdir(), "i-run-"));
  const executionFile = join(dir, "execution.ndjson");
  const trajectory = join(dir, "trajectory.json");
  const sessions = join(dir, "sessions");
  const env = childEnv(inputs, sessions);
  const comment =
    inputs.comment === "sticky" && inputs.githubToken
      ? stickyComment(inputs.githubToken, (m) => core.warning(m))
      : undefined;
  if (inputs.comment === "sticky" && !inputs.githubToken)
    core.warning(
      `comment: sticky needs the github_token input (e.g. github_token: \${{ github.token }}); no comment is posted`,
    );
  const seen: Seen = { steps: [] };
  let lastEdit = 0;
  void comment?.update(progressBody(inputs.model, seen));
  // Model and tool text could spell workflow commands: they are off while the run's log streams.
  const token = randomUUID();
  core.info(`::stop-commands::${token}`);
  const result = await runI(
    bin,
    iArgs(inputs, trajectory),
    env,
    inputs.prompt,
    process.env.GITHUB_WORKSPACE || process.cwd(),
    executionFile,
    (ev) => {
      if (ev.type === "session" && typeof ev.id === "string") seen.session = ev.id;
      if (ev.type === "done") seen.done = ev;
      if (ev.type === "error") seen.error = ev;
      for (const l of logLines(ev)) core.info(inert(l));
      if (ev.type === "tool_call" || ev.type === "task") {
        seen.steps.push(
          inert(logLines(ev)[0] ?? "")
            .replace(/^▸ /, "`")
            .concat("`"),
        );
        if (Date.now() - lastEdit > 5000) {
          lastEdit = Date.now();
          void comment?.update(progressBody(inputs.model, seen));
        }
      }
    },
    (l) => core.info(inert(`i: ${l.replace(/^i: /, "")}`)),
  ).finally(() => core.info(`::${token}::`));
  await finish(inputs, bin, env, { executionFile, trajectory }, seen, result);
  await comment?.update(finalBody(seen, failureLine(seen, result)));
}

function failureLine(seen: Seen, r: { code: number; stderr: string[]; signal?: string }): string | undefined {
  if (r.code === 0) return undefined;
  if (r.signal || r.code === 143 || r.code === 130)
    return `i was stopped (${r.signal ?? "SIGTERM"}: the job's timeout or a cancel); its session and trajectory are saved`;
  const msg =
    typeof seen.error?.message === "string" ? seen.error.message : r.stderr.at(-1)?.replace(/^i: /, "");
  return inert(msg ?? `i exited with code ${r.code}`).replace(/\n/g, " ");
}

async function finish(
  inputs: Inputs,
  bin: string,
  env: NodeJS.ProcessEnv,
  files: { executionFile: string; trajectory: string },
  seen: Seen,
  result: { code: number; stderr: string[]; signal?: string },
): Promise<void> {
  const last = seen.done ?? seen.error;
  core.setOutput("final_message", String(seen.done?.text ?? ""));
  core.setOutput("session_id", seen.session ?? "");
  core.setOutput("execution_file", files.executionFile);
  core.setOutput("trajectory_file", existsSync(files.trajectory) ? files.trajectory : "");
  core.setOutput("cost_usd", typeof last?.cost_usd === "number" ? String(last.cost_usd) : "");
  core.setOutput("exit_code", String(result.code));
  const md = summaryMarkdown(bin, env, seen.session);
  if (md && process.env.GITHUB_STEP_SUMMARY) {
    core.summary.addRaw(md).addRaw(`\n\n---\n${costText(last)} · model ${inputs.model}\n`);
    await core.summary.write();
  }
  const failure = failureLine(seen, result);
  if (failure) core.setFailed(failure);
}
