// Loading mcp.json files (user scope, then a trusted project scope) into checked server entries, and
// expanding their `${VAR}` references. The mcp worker starts servers from these; the core reads the same
// entries for `i mcp`, `i doctor` and to know which variables the worker needs from the environment.
import { join } from "node:path";
import { z } from "zod";
import { describeIssue, UserError } from "../contract/errors.ts";
import {
  MCP_PROJECT_FILE,
  MCP_USER_FILE,
  type McpHttpServer,
  type McpServer,
  McpServerName,
  type McpStdioServer,
  serverSchemaFor,
} from "../contract/mcp.ts";
import { expandVars, referencedVars, UnsetVariable } from "./expand-vars.ts";
import { readConfigJson } from "./json-file.ts";

/** `i`'s own credentials: a server configuration may never pull them out of the environment. */
export const CREDENTIAL_VARS: readonly string[] = [
  "I_API_KEY",
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AZURE_OPENAI_API_KEY",
  "AZURE_OPENAI_AD_TOKEN",
  "OPENROUTER_API_KEY",
];

export type McpScope = "user" | "project";

export interface McpServerEntry {
  name: string;
  scope: McpScope;
  /** the file it comes from */
  file: string;
  config: McpServer;
}

const Top = z.lazy(() =>
  z.strictObject({
    $schema: z.string().optional(),
    $comment: z.string().optional(),
    mcpServers: z.record(z.string(), z.unknown()).optional(),
  }),
);

/** The entries of one mcp.json (its `raw` JSON when already read); one clear UserError line per problem. */
export function parseMcpFile(file: string, scope: McpScope, raw: unknown): McpServerEntry[] {
  const top = Top.safeParse(raw);
  if (!top.success) throw new UserError(describeIssue(file, top.error));
  const out: McpServerEntry[] = [];
  for (const [name, entry] of Object.entries(top.data.mcpServers ?? {})) {
    const subject = `${file}: server "${name}"`;
    const okName = McpServerName.safeParse(name);
    if (!okName.success)
      throw new UserError(`${subject}: ${okName.error.issues[0]?.message}; rename it in mcpServers`);
    const parsed = serverSchemaFor(entry).safeParse(entry);
    if (!parsed.success) throw new UserError(describeIssue(subject, parsed.error, mcpHint));
    out.push({ name, scope, file, config: parsed.data });
  }
  return out;
}

function mcpHint(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code === "unrecognized_keys")
    return "remove it; a server takes command/args/env/cwd (stdio) or type/url/headers (http, sse), plus disabled, timeout_ms, startup_timeout_ms, auto_approve";
  return undefined;
}

/** One mcp.json read and checked; [] when it does not exist. */
export function readMcpFile(file: string, scope: McpScope): McpServerEntry[] {
  const raw = readConfigJson(file);
  return raw === undefined ? [] : parseMcpFile(file, scope, raw);
}

export function userMcpFile(configDir: string): string {
  return join(configDir, MCP_USER_FILE);
}

export function projectMcpFile(workspace: string): string {
  return join(workspace, MCP_PROJECT_FILE);
}

/** User entries, then project entries (a project entry replaces a user entry of the same name). */
export function mergeScopes(user: McpServerEntry[], project: McpServerEntry[]): McpServerEntry[] {
  const byName = new Map<string, McpServerEntry>();
  for (const e of [...user, ...project]) byName.set(e.name, e);
  return [...byName.values()];
}

function expandAll(
  subject: string,
  field: string,
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  for (const v of referencedVars(text))
    if (CREDENTIAL_VARS.includes(v))
      throw new UserError(
        `${subject}: ${field} refers to \${${v}}, one of i's own credentials, which no server is given; use a token of the server's own`,
      );
  try {
    return expandVars(text, env);
  } catch (err) {
    if (err instanceof UnsetVariable) throw new UserError(`${subject}: ${field}: ${err.message}`);
    throw err;
  }
}

function expandMap(
  subject: string,
  field: string,
  map: Record<string, string> | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> | undefined {
  if (!map) return undefined;
  return Object.fromEntries(
    Object.entries(map).map(([k, v]) => [k, expandAll(subject, `${field}.${k}`, v, env)]),
  );
}

/** The entry with `${VAR}` expanded in command, args, env, url and headers; a UserError names what is unset. */
export function expandServer(
  entry: McpServerEntry,
  env: Readonly<Record<string, string | undefined>>,
): McpServer {
  const subject = `${entry.file}: server "${entry.name}"`;
  const c = entry.config;
  if ("command" in c) {
    const s: McpStdioServer = { ...c, command: expandAll(subject, "command", c.command, env) };
    if (c.args) s.args = c.args.map((a, i) => expandAll(subject, `args[${i}]`, a, env));
    const e = expandMap(subject, "env", c.env, env);
    if (e) s.env = e;
    return s;
  }
  const s: McpHttpServer = { ...c, url: expandAll(subject, "url", c.url, env) };
  try {
    if (!/^https?:$/.test(new URL(s.url).protocol)) throw new Error();
  } catch {
    throw new UserError(`${subject}: url "${s.url}" is not an http:// or https:// URL; fix it`);
  }
  const h = expandMap(subject, "headers", c.headers, env);
  if (h) s.headers = h;
  return s;
}

/** Every variable the entries refer to (what the worker needs from the environment), credentials excluded. */
export function serverVariables(entries: readonly McpServerEntry[]): string[] {
  const names = new Set<string>();
  for (const e of entries) {
    const c = e.config;
    const texts =
      "command" in c
        ? [c.command, ...(c.args ?? []), ...Object.values(c.env ?? {})]
        : [c.url, ...Object.values(c.headers ?? {})];
    for (const t of texts) for (const v of referencedVars(t)) if (!CREDENTIAL_VARS.includes(v)) names.add(v);
  }
  return [...names].sort();
}

/** How a server is reached, in a few words (for lists). */
export function describeTransport(c: McpServer): string {
  if ("command" in c) return `stdio: ${[c.command, ...(c.args ?? [])].join(" ")}`;
  return `${c.type}: ${c.url}`;
}
