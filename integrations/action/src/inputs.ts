// The action's inputs, read and checked before anything is installed or run: a missing or bad one is one
// error line naming the input and how to set it.
import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";

export interface Inputs {
  prompt: string;
  model: string;
  provider?: string;
  baseUrl?: string;
  apiKey?: string;
  approve: string;
  sandbox?: string;
  /** extra `i` arguments, split like a shell would (quotes kept together) */
  args: string[];
  version?: string;
  githubToken?: string;
  comment: "off" | "sticky";
  /** an `i` already on the machine: no install (also I_ACTION_BINARY) */
  binary?: string;
  install: "npm" | "release";
  releaseUrl?: string;
}

export class InputError extends Error {}

type Get = (name: string) => string;

const PROVIDERS = ["openai", "anthropic", "responses"];
const APPROVE = ["none", "edits", "all"];

/** `a "b c" 'd'` → [a, b c, d]; an unclosed quote is an error. */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  const re = /"((?:\\.|[^"\\])*)"|'([^']*)'|(\S+)/g;
  for (const m of text.matchAll(re))
    out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] ?? m[3] ?? ""));
  const quotes = text.replace(/"(?:\\.|[^"\\])*"|'[^']*'/g, "");
  if (/["']/.test(quotes))
    throw new InputError(`args: an unclosed quote in "${text}"; close it or remove it`);
  return out;
}

function promptFrom(get: Get, workspace: string): string {
  const prompt = get("prompt").trim();
  const file = get("prompt_file").trim();
  if (prompt && file) throw new InputError("prompt and prompt_file: give one of them, not both");
  if (file) {
    const path = resolve(workspace, file);
    if (!existsSync(path) || !statSync(path).isFile())
      throw new InputError(
        `prompt_file: ${file} does not exist (looked for ${path}); check the path, relative to the workspace`,
      );
    const text = readFileSync(path, "utf8").trim();
    if (!text) throw new InputError(`prompt_file: ${file} is empty; write the task into it`);
    return text;
  }
  if (!prompt)
    throw new InputError("prompt: no task given; set the prompt input (or prompt_file) to what i should do");
  return prompt;
}

function oneOf(name: string, value: string, allowed: readonly string[]): string {
  if (!allowed.includes(value))
    throw new InputError(
      `${name}: "${value}" is not one of ${allowed.join(", ")}; set the ${name} input to one of them`,
    );
  return value;
}

/** The inputs; `env` is the step's environment (for keys the workflow set there instead). */
export function readInputs(get: Get, env: NodeJS.ProcessEnv, workspace: string): Inputs {
  const model = get("model").trim() || env.I_MODEL || "";
  if (!model) throw new InputError("model: no model given; set the model input, e.g. model: gpt-5");
  const provider = get("provider").trim();
  if (provider) oneOf("provider", provider, PROVIDERS);
  const apiKey = get("api_key").trim();
  const envKey = env.I_API_KEY || (provider === "anthropic" ? env.ANTHROPIC_API_KEY : env.OPENAI_API_KEY);
  if (!apiKey && !envKey)
    throw new InputError(
      `api_key: no API key; set the api_key input from a secret, e.g. api_key: \${{ secrets.OPENAI_API_KEY }}`,
    );
  const comment = get("comment").trim() || "off";
  const install = get("install").trim() || "npm";
  const binary = get("i_path").trim() || env.I_ACTION_BINARY || "";
  const baseUrl = get("base_url").trim();
  const sandbox = get("sandbox").trim();
  const version = get("version").trim();
  const githubToken = get("github_token").trim();
  const releaseUrl = get("release_url").trim();
  return {
    prompt: promptFrom(get, workspace),
    model,
    ...(provider ? { provider } : {}),
    ...(baseUrl ? { baseUrl } : {}),
    ...(apiKey ? { apiKey } : {}),
    approve: oneOf("approve", get("approve").trim() || "none", APPROVE),
    ...(sandbox ? { sandbox } : {}),
    args: splitArgs(get("args")),
    ...(version ? { version } : {}),
    ...(githubToken ? { githubToken } : {}),
    comment: oneOf("comment", comment, ["off", "sticky"]) as Inputs["comment"],
    ...(binary ? { binary } : {}),
    install: oneOf("install", install, ["npm", "release"]) as Inputs["install"],
    ...(releaseUrl ? { releaseUrl } : {}),
  };
}
