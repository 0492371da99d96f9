// One configured MCP server for the session: started at once (in parallel with the others), its tools
// listed and checked, its calls made under their own deadline. A crash fails the call in flight and the
// server restarts on the next call; three crashes in a row leave it failed for the session, said once.
import type { WriteStream } from "node:fs";
import { errorMessage } from "../../src/contract/errors.ts";
import type { McpServer } from "../../src/contract/mcp.ts";
import {
  DEFAULT_MCP_STARTUP_TIMEOUT_MS,
  DEFAULT_MCP_TIMEOUT_MS,
  MCP_TOOL_PREFIX,
} from "../../src/contract/mcp.ts";
import type { ToolResult } from "../../src/contract/protocol.ts";
import type { ResourceContent, RuntimeResourceDecl } from "../../src/contract/runtime-resources.ts";
import {
  type CallProgress,
  fitToolName,
  type GroupStatus,
  type RuntimePromptDecl,
  type RuntimeToolDecl,
} from "../../src/contract/runtime-tools.ts";
import { type Connection, connect, loadSdk, openLog } from "./connect.ts";
import { listResources, readResource } from "./resources.ts";
import { mapCallResult } from "./results.ts";

export const MAX_CRASHES = 3;

export type ServerState = "starting" | "ready" | "crashed" | "failed" | "disabled";

interface ServerTool {
  decl: RuntimeToolDecl;
  /** the tool's own name on the server */
  remote: string;
  validate: (args: unknown) => string | undefined;
}

export interface ServerOptions {
  name: string;
  config: McpServer;
  workspace: string;
  configDir: string;
  /** a line for the user, sent once */
  notice: (line: string) => void;
  /** the list of tools changed (revision bump) */
  changed: () => void;
}

export class McpServerConn {
  state: ServerState = "starting";
  /** why it is failed or crashed, in a few words */
  why = "";
  tools: ServerTool[] = [];
  /** the server's prompts: our name, and the server's own */
  prompts: { decl: RuntimePromptDecl; remote: string }[] = [];
  /** the server's resources, as last listed */
  resources: RuntimeResourceDecl[] = [];
  private conn: Connection | undefined;
  private starting: Promise<void> | undefined;
  /** a tools/list after notifications/tools/list_changed, still on its way */
  private refreshing: Promise<void> | undefined;
  private crashes = 0;
  private readonly log: WriteStream | undefined;
  private readonly calls = new Map<string, AbortController>();
  private closed = false;
  private startMs: number | undefined;
  private roundTripMs: number | undefined;

  constructor(private readonly opts: ServerOptions) {
    this.log = opts.config.disabled ? undefined : openLog(opts.configDir, opts.name);
    if (opts.config.disabled) this.state = "disabled";
  }

  get name(): string {
    return this.opts.name;
  }

  get startupMs(): number {
    return this.opts.config.startup_timeout_ms ?? DEFAULT_MCP_STARTUP_TIMEOUT_MS;
  }

  /** Start (or restart) the session; resolves when it is ready or has failed. */
  start(): Promise<void> {
    if (this.state === "disabled" || this.state === "failed" || this.closed) return Promise.resolve();
    this.starting ??= this.open().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** Resolves once a start or a re-listing of tools in progress has ended. */
  settled(): Promise<void> {
    return this.starting ?? this.refreshing ?? Promise.resolve();
  }

  private async open(): Promise<void> {
    const restart = this.state === "crashed";
    this.state = "starting";
    const t0 = performance.now();
    try {
      const conn = await connect(
        {
          name: this.opts.name,
          config: this.opts.config,
          workspace: this.opts.workspace,
          configDir: this.opts.configDir,
          ...(this.log ? { log: this.log } : {}),
          onLost: (why) => this.lost(why),
          onToolsChanged: () => {
            // Said at once (a watching core asks before its next request), then listed: the core's
            // ask waits for the listing to end.
            this.opts.changed();
            const p = this.refreshTools().finally(() => {
              if (this.refreshing === p) this.refreshing = undefined;
            });
            this.refreshing = p;
          },
          onResourcesChanged: () => {
            this.opts.changed();
            const p = this.listResourcesOf(this.conn).finally(() => {
              if (this.refreshing === p) this.refreshing = undefined;
              this.opts.changed();
            });
            this.refreshing = p;
          },
        },
        this.startupMs,
      );
      if (this.closed) {
        await conn.client.close().catch(() => {});
        return;
      }
      this.conn = conn;
      this.startMs = performance.now() - t0;
      // The second of two pings: the first one pays for warming up either side.
      for (let i = 0; i < 2; i++) {
        const t1 = performance.now();
        await conn.client.ping({ timeout: this.startupMs }).then(
          () => {
            this.roundTripMs = performance.now() - t1;
          },
          () => {},
        );
      }
      await this.listTools(conn);
      await this.listPrompts(conn);
      await this.listResourcesOf(conn);
      this.state = "ready";
      this.why = "";
    } catch (err) {
      this.conn = undefined;
      this.why = oneLine(errorMessage(err));
      if (restart) this.crashed(this.why);
      else {
        this.state = "failed";
        this.opts.notice(
          `mcp: server "${this.opts.name}" failed to start: ${this.why}; the session goes on without it`,
        );
      }
    }
    this.opts.changed();
  }

  private lost(why: string): void {
    if (this.closed || this.state !== "ready") return;
    this.conn = undefined;
    this.crashed(why);
    this.opts.changed();
  }

  private crashed(why: string): void {
    this.crashes++;
    this.why = why;
    if (this.crashes >= MAX_CRASHES) {
      this.state = "failed";
      this.tools = [];
      this.opts.notice(
        `mcp: server "${this.opts.name}" crashed ${this.crashes} times in a row (${why}); it stays off for this session`,
      );
    } else this.state = "crashed";
  }

  private async refreshTools(): Promise<void> {
    const conn = this.conn;
    if (!conn) return;
    try {
      await this.listTools(conn);
    } catch (err) {
      this.opts.notice(
        `mcp: server "${this.opts.name}": could not list its changed tools: ${oneLine(errorMessage(err))}`,
      );
    }
    this.opts.changed();
  }

  private async listTools(conn: Connection): Promise<void> {
    const { AjvJsonSchemaValidator } = await loadSdk();
    const ajv = new AjvJsonSchemaValidator();
    const out: ServerTool[] = [];
    const auto = this.opts.config.auto_approve;
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const res = await conn.client.listTools(cursor ? { cursor } : {}, { timeout: this.startupMs });
      for (const t of res.tools) {
        const schema = { ...(t.inputSchema as Record<string, unknown>) };
        if (schema.type === undefined) schema.type = "object";
        let validator: (input: unknown) => { valid: boolean; errorMessage?: string | undefined };
        try {
          validator = ajv.getValidator(schema as never);
        } catch (err) {
          this.opts.notice(
            `mcp: server "${this.opts.name}": tool "${t.name}" has an invalid input schema (${oneLine(errorMessage(err))}); left out`,
          );
          continue;
        }
        const approval = auto === "*" || auto?.includes(t.name) ? "auto" : "ask";
        out.push({
          remote: t.name,
          validate: (args) => {
            const r = validator(args);
            return r.valid ? undefined : (r.errorMessage ?? "does not match the input schema");
          },
          decl: {
            name: fitToolName([MCP_TOOL_PREFIX.slice(0, -2), this.opts.name, t.name]),
            description: (t.description ?? t.title ?? "").slice(0, 4000),
            input_schema: schema,
            title: `${this.opts.name} · ${t.name}`,
            group: this.opts.name,
            approval,
            timeout_ms: this.opts.config.timeout_ms ?? DEFAULT_MCP_TIMEOUT_MS,
          },
        });
      }
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    this.tools = out;
  }

  /** Prompts, for servers that offer them; a failure leaves the server without prompts, not failed. */
  private async listPrompts(conn: Connection): Promise<void> {
    if (!conn.client.getServerCapabilities()?.prompts) return;
    try {
      const res = await conn.client.listPrompts({}, { timeout: this.startupMs });
      this.prompts = res.prompts.map((p) => ({
        remote: p.name,
        decl: {
          name: fitToolName([MCP_TOOL_PREFIX.slice(0, -2), this.opts.name, p.name]),
          description: (p.description ?? p.title ?? "").slice(0, 400),
          arguments: (p.arguments ?? []).map((a) => ({
            name: a.name,
            ...(a.description ? { description: a.description.slice(0, 200) } : {}),
            ...(a.required ? { required: true } : {}),
          })),
        },
      }));
    } catch (err) {
      this.opts.notice(
        `mcp: server "${this.opts.name}": could not list its prompts: ${oneLine(errorMessage(err))}`,
      );
    }
  }

  /** Resources, for servers that offer them; a failure leaves the server without them, not failed. */
  private async listResourcesOf(conn: Connection | undefined): Promise<void> {
    if (!conn) return;
    try {
      this.resources = await listResources(conn.client, this.opts.name, this.startupMs);
    } catch (err) {
      this.opts.notice(
        `mcp: server "${this.opts.name}": could not list its resources: ${oneLine(errorMessage(err))}`,
      );
    }
  }

  /** The contents of one of its resources (restarting a crashed server first, like a call). */
  async resource(uri: string): Promise<ResourceContent[]> {
    if (this.state === "crashed") await this.start();
    else await this.settled();
    const conn = this.conn;
    if (this.state !== "ready" || !conn)
      throw new Error(`MCP server "${this.opts.name}" is not available: ${this.why || this.state}`);
    try {
      return await readResource(conn.client, uri, this.opts.config.timeout_ms ?? DEFAULT_MCP_TIMEOUT_MS);
    } catch (err) {
      // The SDK repeats its "MCP error -32602:" prefix; the server's own words are what matter.
      const why = oneLine(errorMessage(err)).replace(/^(MCP error -?\d+: )+/, "");
      throw new Error(`MCP server "${this.opts.name}" could not read it: ${why}`);
    }
  }

  /** The text of one of its prompts: every message's text, resources as text, anything else named. */
  async prompt(remote: string, args: Record<string, string>): Promise<string> {
    const conn = this.conn;
    if (this.state !== "ready" || !conn)
      throw new Error(`MCP server "${this.opts.name}" is not available: ${this.why || this.state}`);
    const res = await conn.client.getPrompt(
      { name: remote, arguments: args },
      { timeout: this.opts.config.timeout_ms ?? DEFAULT_MCP_TIMEOUT_MS },
    );
    const parts = res.messages.map((m) => {
      const r = mapCallResult({ content: [m.content] });
      return typeof r.content === "string"
        ? r.content
        : r.content.map((p) => (p.type === "text" ? p.text : "[image left out]")).join("\n");
    });
    return parts.join("\n\n");
  }

  /** Call `tool`; the server's progress notifications go to `onProgress` as they arrive. */
  async call(
    tool: ServerTool,
    args: unknown,
    callId: string,
    onProgress?: (progress: CallProgress) => void,
  ): Promise<ToolResult> {
    if (this.state === "crashed") await this.start();
    else await this.settled();
    const conn = this.conn;
    if (this.state !== "ready" || !conn)
      return {
        content: `MCP server "${this.opts.name}" is not available: ${this.why || this.state}`,
        is_error: true,
      };
    const problem = tool.validate(args ?? {});
    if (problem)
      return {
        content: `invalid arguments for ${tool.decl.name}: ${problem}; follow its input schema`,
        is_error: true,
      };
    const ctl = new AbortController();
    this.calls.set(callId, ctl);
    const timeout = tool.decl.timeout_ms ?? DEFAULT_MCP_TIMEOUT_MS;
    try {
      const r = await conn.client.callTool(
        { name: tool.remote, arguments: (args ?? {}) as Record<string, unknown> },
        undefined,
        {
          signal: ctl.signal,
          timeout,
          maxTotalTimeout: timeout,
          onprogress: (p) =>
            onProgress?.({
              progress: p.progress,
              ...(p.total !== undefined ? { total: p.total } : {}),
              ...(p.message ? { message: p.message.slice(0, 200) } : {}),
            }),
        },
      );
      this.crashes = 0;
      return mapCallResult(r);
    } catch (err) {
      if (ctl.signal.aborted) return { content: "cancelled by the user", is_error: true };
      const msg = oneLine(errorMessage(err));
      if (/timed out|timeout/i.test(msg))
        return {
          content: `${tool.decl.name}: no answer from MCP server "${this.opts.name}" within ${timeout} ms (its timeout_ms); the call was cancelled`,
          is_error: true,
        };
      const state = this.state as ServerState;
      if (this.conn !== conn || state !== "ready") {
        const next = state === "failed" ? "it stays off for this session" : "it restarts on the next call";
        return {
          content: `MCP server "${this.opts.name}" crashed during the call (${msg}); ${next}`,
          is_error: true,
        };
      }
      return { content: `${tool.decl.name} failed: ${msg}`, is_error: true };
    } finally {
      this.calls.delete(callId);
    }
  }

  cancel(callId: string): boolean {
    const ctl = this.calls.get(callId);
    ctl?.abort("cancelled by the user");
    return ctl !== undefined;
  }

  /** Where it stands, for `/mcp`, `i mcp list` and `i doctor`. */
  status(): GroupStatus {
    return {
      state: this.state,
      tools: this.state === "failed" ? 0 : this.tools.length,
      ...(this.why ? { detail: this.why } : {}),
      ...(this.startMs !== undefined ? { start_ms: this.startMs } : {}),
      ...(this.roundTripMs !== undefined ? { round_trip_ms: this.roundTripMs } : {}),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const conn = this.conn;
    this.conn = undefined;
    if (conn) await conn.client.close().catch(() => {});
    this.log?.end();
  }
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").trim().slice(0, 300);
}
