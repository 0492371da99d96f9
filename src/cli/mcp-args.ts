// The argument words of `i mcp add`: flags before the name (or `--`), then either `NAME -- COMMAND ARGS…`
// (stdio) or `--transport http|sse NAME URL`. Every mistake is one usage line (exit 2).
import { UserError } from "../contract/errors.ts";
import type { McpServer } from "../contract/mcp.ts";

export interface AddArgs {
  name: string;
  scope: "user" | "project";
  server: McpServer;
}

const USAGE =
  "usage: i mcp add NAME [--scope user|project] [--env K=V]… -- COMMAND [ARGS…]  or  i mcp add --transport http|sse NAME URL [--header 'K: V']…";

function fail(what: string): never {
  throw new UserError(`i mcp: add: ${what}; ${USAGE}`);
}

export function parseScope(value: string | undefined, cmd: string): "user" | "project" {
  if (value === "user" || value === "project") return value;
  throw new UserError(`${cmd}: --scope must be user or project, not "${value ?? ""}"`);
}

export function parseAdd(words: readonly string[]): AddArgs {
  const dash = words.indexOf("--");
  const head = dash >= 0 ? words.slice(0, dash) : [...words];
  const command = dash >= 0 ? words.slice(dash + 1) : [];
  let scope: "user" | "project" = "user";
  let transport: "stdio" | "http" | "sse" = "stdio";
  const env: Record<string, string> = {};
  const headers: Record<string, string> = {};
  const positional: string[] = [];
  for (let i = 0; i < head.length; i++) {
    const w = head[i] as string;
    const value = () => {
      const v = head[++i];
      if (v === undefined) fail(`${w} needs a value`);
      return v;
    };
    if (w === "--scope" || w === "-s") scope = parseScope(value(), "i mcp: add");
    else if (w === "--transport" || w === "-t") {
      const t = value();
      if (t !== "stdio" && t !== "http" && t !== "sse")
        fail(`--transport must be stdio, http or sse, not "${t}"`);
      transport = t;
    } else if (w === "--env" || w === "-e") {
      const kv = value();
      const eq = kv.indexOf("=");
      if (eq <= 0) fail(`--env takes KEY=VALUE, not "${kv}"`);
      env[kv.slice(0, eq)] = kv.slice(eq + 1);
    } else if (w === "--header" || w === "-H") {
      const h = value();
      const colon = h.indexOf(":");
      if (colon <= 0) fail(`--header takes "Name: value", not "${h}"`);
      headers[h.slice(0, colon).trim()] = h.slice(colon + 1).trim();
    } else if (w.startsWith("-")) fail(`unknown flag ${w}`);
    else positional.push(w);
  }
  const [name, url, ...extra] = positional;
  if (!name) fail("the server's NAME is missing");
  if (transport === "stdio") {
    if (url !== undefined) fail(`"${url}" after NAME: put the command after --`);
    if (Object.keys(headers).length) fail("--header is for http and sse servers");
    const [program, ...args] = command;
    if (!program) fail("the COMMAND is missing after --");
    return {
      name,
      scope,
      server: {
        command: program,
        ...(args.length ? { args } : {}),
        ...(Object.keys(env).length ? { env } : {}),
      },
    };
  }
  if (!url) fail("the URL is missing after NAME");
  if (extra.length || command.length) fail("an http or sse server takes NAME URL and nothing more");
  if (Object.keys(env).length) fail("--env is for stdio servers (an http server's tokens go in --header)");
  return {
    name,
    scope,
    server: { type: transport, url, ...(Object.keys(headers).length ? { headers } : {}) },
  };
}
