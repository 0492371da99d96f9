// mcp.json: MCP servers in the ecosystem's format (`{"mcpServers": {NAME: SERVER}}`, as Claude Code, codex
// and opencode users already have), plus a few keys of our own. config_dir/mcp.json is the user's scope,
// <workspace>/.mcp.json the project's (untrusted until accepted). Unknown keys are errors.
import { z } from "zod";

export const MCP_USER_FILE = "mcp.json";
export const MCP_PROJECT_FILE = ".mcp.json";
/** One tool call's deadline unless the server sets `timeout_ms`. */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;
/** How long a server may take to start and answer `initialize` unless it sets `startup_timeout_ms`. */
export const DEFAULT_MCP_STARTUP_TIMEOUT_MS = 10_000;
/** The mcp worker's variable with the servers an ACP client offered (`{"mcpServers":{…}}`), trusted. */
export const CLIENT_MCP_ENV = "I_MCP_CLIENT_SERVERS";
/** The namespace of MCP tools: `mcp__<server>__<tool>` (Claude Code's convention). */
export const MCP_TOOL_PREFIX = "mcp__";

/** A server name: what the tool names, `/mcp` and `i mcp` use. */
export const McpServerName = z
  .string()
  .regex(/^[a-zA-Z0-9_.-]{1,48}$/, "a server name is 1 to 48 letters, digits, `_`, `.` or `-`");

const Common = {
  /** keep the entry but do not start the server */
  disabled: z.boolean().optional(),
  /** one tool call's deadline, ms (default 60000) */
  timeout_ms: z.number().int().min(100).max(86_400_000).optional(),
  /** starting and the `initialize` handshake, ms (default 10000) */
  startup_timeout_ms: z.number().int().min(100).max(600_000).optional(),
  /** tools of this server that run without asking (their MCP names), or "*" for all of them */
  auto_approve: z.union([z.literal("*"), z.array(z.string().min(1))]).optional(),
};

const StringMap = z.record(z.string(), z.string());

export const McpStdioServer = z.lazy(() =>
  z.strictObject({
    type: z.literal("stdio").optional(),
    /** the program; found on PATH like a shell would, never run through a shell */
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    /** added to the server's environment (the worker's small allow-list); never `i`'s credentials */
    env: StringMap.optional(),
    /** working directory (default: the workspace); relative to the workspace */
    cwd: z.string().min(1).optional(),
    ...Common,
  }),
);

const url = z.string().refine((u) => {
  try {
    return /^https?:$/.test(new URL(u).protocol);
  } catch {
    // ${VAR} may still be in it: checked again after expansion
    return u.includes("${");
  }
}, "must be an http:// or https:// URL");

export const McpHttpServer = z.lazy(() =>
  z.strictObject({
    /** streamable HTTP ("http"), or the legacy HTTP+SSE transport ("sse") */
    type: z.enum(["http", "sse"]),
    url,
    headers: StringMap.optional(),
    ...Common,
  }),
);

export const McpServer = z.union([McpStdioServer, McpHttpServer]);
export type McpStdioServer = z.infer<typeof McpStdioServer>;
export type McpHttpServer = z.infer<typeof McpHttpServer>;
export type McpServer = z.infer<typeof McpServer>;

export const McpFile = z.lazy(() =>
  z.strictObject({
    $schema: z.string().optional(),
    $comment: z.string().optional(),
    mcpServers: z.record(z.string(), McpServer).optional(),
  }),
);
export type McpFile = z.infer<typeof McpFile>;

/** The schema a server entry is checked against: by its `type`, else by whether it has a `url`. */
export function serverSchemaFor(entry: unknown): typeof McpStdioServer | typeof McpHttpServer {
  if (entry && typeof entry === "object" && !Array.isArray(entry)) {
    const e = entry as Record<string, unknown>;
    if (e.type === "http" || e.type === "sse") return McpHttpServer;
    if (e.type === undefined && "url" in e && !("command" in e)) return McpHttpServer;
  }
  return McpStdioServer;
}
