// The first-run setup (and `i auth login`): provider, key (or the cloud's credentials, region, project),
// model, an optional test request, then both files written at once. Every answer can be changed after a
// failed test; nothing is written before the end, so Ctrl-C or a failure at any step leaves the config
// directory as it was.
import type { ModelInfo } from "../../contract/config.ts";
import { PROVIDER_ENV } from "../../provider/credentials.ts";
import { lookupModel } from "../../provider/index.ts";
import { credentialEnv } from "../../runtime/credential-handoff.ts";
import { sanitize } from "../../terminal/sanitize.ts";
import { type AskIo, ask, choose, chooseOption, confirm } from "./ask.ts";
import { askCloud, askDeployment } from "./cloud-questions.ts";
import { configAfter, type SetupAnswers, type SetupCloud, saveAnswers } from "./setup-files.ts";
import { type Choice, KEYLESS, modelsFor, PROVIDERS, providerOf } from "./setup-providers.ts";
import { testRequest } from "./test-request.ts";

/** The variables a run reads the key from, first to last (I_API_KEY before them all). */
const keyVars = (choice: Choice): readonly string[] => {
  const p = providerOf(choice);
  return p === "bedrock" || p === "vertex" ? [] : PROVIDER_ENV[p];
};

const thousands = (n: number) => (n >= 1000 ? `${Math.round(n / 1000)}k` : String(n));

function describe(name: string): string {
  const info = lookupModel(name);
  if (!info) return name;
  const width = Math.max(18, name.length);
  return `${name.padEnd(width)} ${thousands(info.context_window).padStart(5)} window${info.images === "keep" ? ", images" : ""}`;
}

interface Draft {
  choice: Choice;
  baseUrl?: string;
  key?: string;
  model?: string;
  modelInfo?: ModelInfo;
  cloud?: SetupCloud;
  /** config_dir: what it holds gives the cloud questions their defaults */
  dir: string;
}

async function askSettings(io: AskIo, d: Draft, env: NodeJS.ProcessEnv): Promise<void> {
  const cloud = await askCloud(io, d.dir, d.choice, env, d.cloud);
  if (cloud) d.cloud = cloud;
  else delete d.cloud;
}

async function askProvider(io: AskIo, d: Draft, env: NodeJS.ProcessEnv): Promise<void> {
  const at = PROVIDERS.findIndex((p) => p.choice === d.choice);
  d.choice = (await chooseOption(io, "Which models do you use?", PROVIDERS, at)).choice;
  if (d.choice !== "local") {
    delete d.baseUrl;
    return askSettings(io, d, env);
  }
  delete d.cloud;
  for (;;) {
    const url = await ask(io, "Server URL", d.baseUrl ?? "http://localhost:11434/v1");
    if (/^https?:\/\/[^\s/]+/.test(url) && URL.canParse(url)) {
      d.baseUrl = url.replace(/\/+$/, "");
      return;
    }
    io.write(
      `"${sanitize(url)}" is not an http:// or https:// URL; give one like http://localhost:11434/v1\n`,
    );
  }
}

async function askKey(io: AskIo, d: Draft, env: NodeJS.ProcessEnv): Promise<void> {
  if (KEYLESS.has(d.choice)) {
    delete d.key; // signed with the cloud's credentials: nothing for auth.json
    return;
  }
  const name = ["I_API_KEY", ...keyVars(d.choice)].find((v) => env[v]?.trim());
  const fromEnv = name !== undefined;
  const hint =
    d.choice === "local"
      ? "API key (hidden; Enter if the server needs none)"
      : fromEnv
        ? `API key (hidden; Enter keeps the one in ${name})`
        : "Paste your API key (hidden)";
  for (;;) {
    const key = await ask(io, hint, undefined, true);
    if (key === "" && (d.choice === "local" || fromEnv)) {
      delete d.key;
      return;
    }
    if (key === "") io.write("a key is needed for this provider (Ctrl-C leaves the setup)\n");
    else if (/[\s"'`]/.test(key)) io.write("that key holds spaces or quotes; paste the key alone\n");
    else {
      d.key = key;
      io.write(`key received (${key.length} characters, not shown)\n`);
      return;
    }
  }
}

async function askWindow(io: AskIo): Promise<number> {
  for (;;) {
    const a = (await ask(io, "Its context window in tokens (e.g. 32768)")).replace(/[_,]/g, "");
    const n = /^\d+k$/i.test(a) ? Number(a.slice(0, -1)) * 1024 : Number(a);
    if (Number.isInteger(n) && n >= 1024) return n;
    io.write(`"${sanitize(a)}" is not a whole number of tokens of at least 1024\n`);
  }
}

async function askModel(io: AskIo, d: Draft): Promise<void> {
  await pickModel(io, d);
  if (d.model) await askDeployment(io, d.cloud, d.model);
}

async function pickModel(io: AskIo, d: Draft): Promise<void> {
  const region = d.cloud?.section === "bedrock" ? d.cloud.values.region : undefined;
  const names = modelsFor(d.choice, region);
  const options: { label: string; model?: string }[] = [
    ...names.map((model) => ({ label: describe(model), model })),
    { label: "another model: type its name" },
  ];
  const listed = options.findIndex((o) => d.model && o.model === d.model);
  const at = Math.max(listed, 0);
  const pick = await chooseOption(io, "Which model?", options, at);
  delete d.modelInfo;
  if (pick.model !== undefined) {
    d.model = pick.model;
    return;
  }
  for (;;) {
    const name = await ask(io, "Model name, as the server knows it", d.model);
    if (name !== "" && !/\s/.test(name)) {
      d.model = name;
      break;
    }
    io.write("a model name has no spaces, e.g. qwen2.5-coder:32b\n");
  }
  if (lookupModel(d.model)) return;
  io.write(`${sanitize(d.model)} is not in the built-in table: its window is needed to budget the context\n`);
  d.modelInfo = { context_window: await askWindow(io) };
}

function answers(d: Draft): SetupAnswers {
  return {
    provider: providerOf(d.choice),
    ...(d.cloud ? { cloud: d.cloud } : {}),
    model: d.model ?? "",
    ...(d.baseUrl ? { baseUrl: d.baseUrl } : {}),
    ...(d.key !== undefined ? { key: d.key } : {}),
    ...(d.modelInfo ? { modelInfo: d.modelInfo } : {}),
  };
}

/** Run the whole setup on `io`, save it into `dir`; returns the files written. */
export async function runSetup(
  io: AskIo,
  dir: string,
  env: NodeJS.ProcessEnv = credentialEnv(),
): Promise<string[]> {
  io.write(
    "Set up i: choose a provider, give its key (or say where its cloud credentials are) and pick a model.\nNothing is saved before the end.\n\n",
  );
  const d: Draft = { choice: "openai", dir };
  await askProvider(io, d, env);
  await askKey(io, d, env);
  await askModel(io, d);
  for (;;) {
    const a = answers(d);
    const config = configAfter(dir, a); // a bad config.json is said now, not after the questions
    if (!(await confirm(io, "Send one short test request now?", true))) return saveAnswers(dir, a);
    io.write("testing…\n");
    const why = await testRequest(a, env, config);
    if (why === undefined) {
      io.write(`${sanitize(a.model)} answered.\n`);
      return saveAnswers(dir, a);
    }
    io.write(`the test request failed: ${why}\n`);
    const fix = await choose(
      io,
      "What do you want to change? (nothing is saved yet)",
      [
        "the provider or its settings",
        KEYLESS.has(d.choice) ? "the credentials, region or project" : "the key",
        "the model",
        "nothing: try again",
        "nothing: save anyway",
      ],
      0,
    );
    if (fix === 0) {
      await askProvider(io, d, env);
      await askKey(io, d, env);
      await askModel(io, d);
    } else if (fix === 1 && KEYLESS.has(d.choice)) await askSettings(io, d, env);
    else if (fix === 1) await askKey(io, d, env);
    else if (fix === 2) await askModel(io, d);
    else if (fix === 4) return saveAnswers(dir, answers(d));
  }
}
