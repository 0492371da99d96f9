// The first-run setup (and `i auth login`): provider, key, model, an optional test request, then both files
// written at once. Every answer can be changed after a failed test; nothing is written before the end, so
// Ctrl-C or a failure at any step leaves the config directory as it was.
import type { ModelInfo, ProviderName } from "../../contract/config.ts";
import { lookupModel } from "../../provider/index.ts";
import { MODEL_TABLE } from "../../provider/model-table.ts";
import { credentialEnv } from "../../runtime/credential-handoff.ts";
import { sanitize } from "../../terminal/sanitize.ts";
import { type AskIo, ask, choose, confirm } from "./ask.ts";
import { type SetupAnswers, saveAnswers } from "./setup-files.ts";
import { testRequest } from "./test-request.ts";

type Choice = "openai" | "anthropic" | "local";

const PROVIDERS: ReadonlyArray<{ choice: Choice; label: string }> = [
  { choice: "openai", label: "OpenAI" },
  { choice: "anthropic", label: "Anthropic" },
  { choice: "local", label: "An OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM Studio) at a URL" },
];

const KEY_ENV: Record<Choice, string> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  local: "OPENAI_API_KEY",
};

/** The table's models a provider serves: OpenAI's and Anthropic's by name, the open ones for a server. */
export function modelsFor(choice: Choice): string[] {
  const names = Object.keys(MODEL_TABLE);
  if (choice === "anthropic") return names.filter((n) => n.startsWith("claude"));
  const openai = (n: string) => /^(gpt-[45]|o\d|codex)/.test(n);
  return choice === "openai"
    ? names.filter(openai)
    : names.filter((n) => !openai(n) && !n.startsWith("claude"));
}

const thousands = (n: number) => (n >= 1000 ? `${Math.round(n / 1000)}k` : String(n));

function describe(name: string): string {
  const info = MODEL_TABLE[name];
  if (!info) return name;
  return `${name.padEnd(18)} ${thousands(info.context_window).padStart(5)} window${info.images === "keep" ? ", images" : ""}`;
}

interface Draft {
  choice: Choice;
  baseUrl?: string;
  key?: string;
  model?: string;
  modelInfo?: ModelInfo;
}

async function askProvider(io: AskIo, d: Draft): Promise<void> {
  const at = PROVIDERS.findIndex((p) => p.choice === d.choice);
  d.choice =
    PROVIDERS[
      await choose(
        io,
        "Which models do you use?",
        PROVIDERS.map((p) => p.label),
        at,
      )
    ]?.choice ?? "openai";
  if (d.choice !== "local") {
    delete d.baseUrl;
    return;
  }
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
  const name = KEY_ENV[d.choice];
  const fromEnv = env.I_API_KEY?.trim() || env[name]?.trim();
  const hint =
    d.choice === "local"
      ? "API key (hidden; Enter if the server needs none)"
      : fromEnv
        ? `API key (hidden; Enter keeps the one in ${env.I_API_KEY?.trim() ? "I_API_KEY" : name})`
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
  const names = modelsFor(d.choice);
  const options = [...names.map(describe), "another model: type its name"];
  const at = d.model && names.includes(d.model) ? names.indexOf(d.model) : 0;
  const pick = await choose(io, "Which model?", options, at);
  delete d.modelInfo;
  if (pick < names.length) {
    d.model = names[pick];
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
  const provider: ProviderName = d.choice === "anthropic" ? "anthropic" : "openai";
  return {
    provider,
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
    "Set up i: choose a provider, give its key and pick a model. Nothing is saved before the end.\n\n",
  );
  const d: Draft = { choice: "openai" };
  await askProvider(io, d);
  await askKey(io, d, env);
  await askModel(io, d);
  for (;;) {
    const a = answers(d);
    if (!(await confirm(io, "Send one short test request now?", true))) return saveAnswers(dir, a);
    io.write("testing…\n");
    const envKey = env.I_API_KEY?.trim() || env[KEY_ENV[d.choice]]?.trim();
    const why = await testRequest(a, envKey);
    if (why === undefined) {
      io.write(`${sanitize(a.model)} answered.\n`);
      return saveAnswers(dir, a);
    }
    io.write(`the test request failed: ${why}\n`);
    const fix = await choose(
      io,
      "What do you want to change? (nothing is saved yet)",
      ["the provider or its URL", "the key", "the model", "nothing: try again", "nothing: save anyway"],
      0,
    );
    if (fix === 0) {
      await askProvider(io, d);
      await askKey(io, d, env);
      await askModel(io, d);
    } else if (fix === 1) await askKey(io, d, env);
    else if (fix === 2) await askModel(io, d);
    else if (fix === 4) return saveAnswers(dir, answers(d));
  }
}
