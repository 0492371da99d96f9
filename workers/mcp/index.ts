// The built-in `mcp` module: an MCP client for the servers of mcp.json (and a trusted .mcp.json). Its tools
// are declared at run time as `mcp__<server>__<tool>`. Servers start in parallel when the worker starts;
// the core asks for the current list before each model request (`tools`), waiting only for servers still
// starting. Nothing it started outlives it: on end of input every session closes and, as the leader of
// its own process group, it takes whatever a server left behind down with it.
import type { ToolResult } from "../../src/contract/protocol.ts";
import type { ResourceContent } from "../../src/contract/runtime-resources.ts";
import type { GroupStatus, RuntimeToolDecl } from "../../src/contract/runtime-tools.ts";
import {
  defineWorkerModule,
  type RuntimeToolList,
  type ToolContext,
  type WorkerContext,
  type WorkerModule,
} from "../sdk/module.ts";
import { workerConfigDir } from "../sdk/worker-env.ts";
import { loadServers, projectAccepted } from "./config.ts";
import { McpServerConn } from "./server.ts";

class Fleet {
  private servers: McpServerConn[] = [];
  private byTool = new Map<string, { server: McpServerConn; index: number }>();
  private revision = 1;
  private notices: string[] = [];
  private started: Promise<void> | undefined;
  private projectUntrusted = false;
  private workspace = "";
  private readonly callServer = new Map<string, McpServerConn>();
  /** every notice is said once per session, however often its cause is met again */
  private readonly said = new Set<string>();

  constructor(private readonly configDir: string) {}

  /** `tools_watch` requests waiting for a change */
  private readonly watchers = new Set<() => void>();

  private notice(line: string): void {
    if (this.said.has(line)) return;
    this.said.add(line);
    this.notices.push(line);
    // A notice is news too: the core asks for the list (which carries it) before the next request.
    this.revision++;
    this.wake();
  }

  private wake(): void {
    for (const w of [...this.watchers]) w();
  }

  /** Resolves with the revision once it is no longer `revision`, or after `waitMs`. */
  watch(revision: number, waitMs: number): Promise<number> {
    if (this.revision !== revision) return Promise.resolve(this.revision);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.watchers.delete(done);
        resolve(this.revision);
      };
      const timer = setTimeout(done, waitMs);
      this.watchers.add(done);
    });
  }

  private start(workspace: string): void {
    this.workspace = workspace;
    const loaded = loadServers(this.configDir, workspace, process.env);
    this.projectUntrusted = loaded.projectUntrusted;
    for (const p of loaded.problems) this.notice(p);
    const fresh = loaded.servers.map(
      (s) =>
        new McpServerConn({
          name: s.name,
          config: s.config,
          workspace,
          configDir: this.configDir,
          notice: (line) => this.notice(line),
          changed: () => this.changed(),
        }),
    );
    this.servers.push(...fresh.filter((s) => !this.servers.some((o) => o.name === s.name)));
    this.started = Promise.all(this.servers.map((s) => s.start())).then(() => {});
  }

  private changed(): void {
    this.revision++;
    this.byTool.clear();
    this.wake();
  }

  private index(): Map<string, { server: McpServerConn; index: number }> {
    if (this.byTool.size === 0)
      for (const server of this.servers)
        if (server.state === "ready" || server.state === "crashed")
          server.tools.forEach((t, index) => {
            if (!this.byTool.has(t.decl.name)) this.byTool.set(t.decl.name, { server, index });
            else
              this.notice(
                `mcp: tool ${t.decl.name} of server "${server.name}" has the name of another server's tool; left out`,
              );
          });
    return this.byTool;
  }

  async list(waitMs: number, ctx: WorkerContext): Promise<RuntimeToolList> {
    if (!this.started) this.start(ctx.workspace);
    else if (this.projectUntrusted && projectAccepted(this.configDir, this.workspace)) {
      // Accepted since (the console's prompt, `i mcp trust`): start the project's servers now.
      const before = this.servers.length;
      this.start(this.workspace);
      if (this.servers.length !== before) this.changed();
    }
    if (waitMs > 0 && this.started) {
      // Servers still starting, and tool lists being fetched again after list_changed, are waited for.
      const pending = this.started.then(() => Promise.all(this.servers.map((s) => s.settled())));
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([pending, new Promise((r) => (timer = setTimeout(r, waitMs)))]);
      clearTimeout(timer);
    }
    const tools: RuntimeToolDecl[] = [];
    for (const { server, index } of this.index().values()) {
      const t = server.tools[index];
      if (t) tools.push(t.decl);
    }
    const prompts = this.servers
      .filter((s) => s.state === "ready")
      .flatMap((s) => s.prompts.map((p) => p.decl));
    const resources = this.servers.filter((s) => s.state === "ready").flatMap((s) => s.resources);
    const notices = this.notices.splice(0);
    const status: Record<string, GroupStatus> = {};
    for (const s of this.servers) status[s.name] = s.status();
    // While the project's file waits for acceptance (`i mcp trust` may come from anywhere), the core asks
    // every time: this list is where an acceptance is noticed and its servers are started.
    return {
      revision: this.revision,
      tools,
      prompts,
      resources,
      ...(notices.length ? { notices } : {}),
      status,
      watch: !this.projectUntrusted,
    };
  }

  async call(name: string, args: unknown, ctx: ToolContext): Promise<ToolResult> {
    const { callId, progress } = ctx;
    const hit = this.index().get(name);
    const tool = hit?.server.tools[hit.index];
    if (!hit || !tool)
      return {
        content: `unknown MCP tool "${name}" (its server may have stopped offering it)`,
        is_error: true,
      };
    this.callServer.set(callId, hit.server);
    try {
      return await hit.server.call(tool, args, callId, progress);
    } finally {
      this.callServer.delete(callId);
    }
  }

  cancel(callId: string): void {
    this.callServer.get(callId)?.cancel(callId);
  }

  async prompt(name: string, args: Record<string, string>): Promise<string> {
    for (const s of this.servers) {
      const p = s.prompts.find((x) => x.decl.name === name);
      if (p) return s.prompt(p.remote, args);
    }
    throw new Error(`no MCP prompt "${name}" (its server may have stopped offering it)`);
  }

  async resource(server: string, uri: string): Promise<ResourceContent[]> {
    if (this.started) await this.started;
    const s = this.servers.find((x) => x.name === server);
    if (!s) {
      const known = this.servers.map((x) => x.name);
      const hint = this.projectUntrusted
        ? " (this workspace's .mcp.json is not trusted yet: /trust)"
        : known.length
          ? ` (configured: ${known.join(", ")})`
          : " (none is configured: mcp.json)";
      throw new Error(`no MCP server "${server}"${hint}`);
    }
    return s.resource(uri);
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.close()));
    killOwnGroup();
  }
}

/**
 * The host starts every worker as the leader of its own process group; servers (and anything they
 * spawned) are in it. Once the sessions are closed, one SIGKILL to the group leaves nothing behind,
 * this process included (it has nothing left to do). Not when started by hand outside a group of its own.
 */
function killOwnGroup(): void {
  if (process.platform === "win32") return;
  try {
    process.kill(-process.pid, 0);
  } catch {
    return;
  }
  process.kill(-process.pid, "SIGKILL");
}

export function createMcpModule(): WorkerModule {
  const fleet = new Fleet(workerConfigDir());
  return defineWorkerModule({
    name: "mcp",
    hooks: {},
    concurrent: true,
    runtimeTools: {
      list: (waitMs, ctx) => fleet.list(waitMs, ctx),
      call: (name, args, ctx) => fleet.call(name, args, ctx),
      cancel: (callId) => fleet.cancel(callId),
      watch: (revision, waitMs) => fleet.watch(revision, waitMs),
      prompt: (name, args) => fleet.prompt(name, args),
      resource: (server, uri) => fleet.resource(server, uri),
      close: () => fleet.close(),
    },
  });
}
