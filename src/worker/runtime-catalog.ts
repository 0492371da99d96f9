// What modules declare at run time rather than at hello: tools (MCP servers' tools), prompts and
// resources, each list with the revision its module last reported. The host asks for them (`tools`,
// `tools_watch`) before requests and keeps the answer here; a module that fails keeps what it had.
import type { ModuleName } from "../contract/registry.ts";
import { MODULES } from "../contract/registry.ts";
import {
  RESOURCE_EVENT,
  type ResourceContent,
  ResourceReplyData,
  type RuntimeResourceDecl,
} from "../contract/runtime-resources.ts";
import {
  type GroupStatus,
  PROMPT_EVENT,
  PromptReplyData,
  type RuntimePromptDecl,
  type RuntimeToolDecl,
  TOOLS_EVENT,
  TOOLS_WATCH_EVENT,
  ToolsReplyData,
  ToolsWatchReplyData,
} from "../contract/runtime-tools.ts";
import { WorkerError } from "./errors.ts";
import type { Data, ReplyCheck, RequestOptions } from "./process.ts";
import { type RuntimeEntry, RuntimeToolTable } from "./runtime-tools.ts";

/** What a runtime-tools refresh brought: lines for the user, and each module's status per group. */
export interface RuntimeRefresh {
  notices: string[];
  /** some module's list changed since the last refresh */
  changed: boolean;
  status: Partial<Record<ModuleName, Record<string, GroupStatus>>>;
}

/** The `tools` poll: how long a module may wait for tools still on their way (well inside the deadline). */
export const TOOLS_WAIT_MS = 12_000;
/** A `tools_watch` answered later than its own wait by this much means the module hangs. */
const WATCH_GRACE_MS = 10_000;

type Send = (
  module: ModuleName,
  event: string,
  data: Data,
  check?: ReplyCheck,
  extra?: RequestOptions,
) => Promise<Data>;

export class RuntimeCatalog {
  /** tools declared at run time, and the last revision each module reported */
  private readonly runtime: RuntimeToolTable;
  private readonly revisions = new Map<ModuleName, number>();
  /** modules whose last `tools` reply said they answer `tools_watch` */
  private readonly watchable = new Set<ModuleName>();
  private readonly runtimeNotices: string[] = [];
  private readonly saidFailures = new Set<string>();
  /** prompts modules declare at run time, by module */
  private readonly prompts = new Map<ModuleName, RuntimePromptDecl[]>();
  /** resources modules offer at run time (`@SERVER:URI` mentions), by module */
  private readonly resources = new Map<ModuleName, RuntimeResourceDecl[]>();

  /**
   * @param send one event to one module (the host's)
   * @param modules the manifest's modules that declare tools at run time
   * @param reserved who already holds a tool name (a core tool, a module's fixed tool), if anyone
   */
  constructor(
    private readonly send: Send,
    readonly modules: readonly ModuleName[],
    reserved: (name: string) => string | undefined,
  ) {
    this.runtime = new RuntimeToolTable(reserved);
  }

  tool(name: string): RuntimeEntry | undefined {
    return this.runtime.get(name);
  }

  /** A fresh process of `module` passed its hello: it counts its revisions afresh, and may bring tools. */
  helloFrom(module: ModuleName, tools: readonly RuntimeToolDecl[] | undefined): void {
    this.revisions.delete(module);
    if (tools) this.runtimeNotices.push(...this.accept(module, tools));
  }

  /** The tools modules declare at run time now, by module (offered through the dispatch's declared tools). */
  decls(): Map<ModuleName, RuntimeToolDecl[]> {
    const out = new Map<ModuleName, RuntimeToolDecl[]>(this.modules.map((m) => [m, []]));
    for (const { module, decl } of this.runtime.entries()) out.get(module)?.push(decl);
    return out;
  }

  /** The prompts modules offer now (the console's slash commands), each with the module offering it. */
  promptList(): { module: ModuleName; decl: RuntimePromptDecl }[] {
    return [...this.prompts].flatMap(([module, decls]) => decls.map((decl) => ({ module, decl })));
  }

  /** The text of prompt `name` of a module, with `args`. */
  async getPrompt(name: string, args: Record<string, string>): Promise<string> {
    const p = this.promptList().find((x) => x.decl.name === name);
    if (!p) throw new Error(`no prompt "${name}"`);
    const reply = PromptReplyData.safeParse(
      await this.send(p.module, PROMPT_EVENT, { name, arguments: args }),
    );
    if (!reply.success) throw new Error(`module "${p.module}" sent an invalid prompt reply`);
    return reply.data.text;
  }

  /** The resources modules offer now (as of the last `tools` reply). */
  resourceList(): RuntimeResourceDecl[] {
    return [...this.resources.values()].flat();
  }

  /**
   * The contents of resource `uri` of server `server`, read by the module that offers that server's
   * resources (or, not yet listed, the first module declaring tools at run time, which says what it knows).
   */
  async readResource(server: string, uri: string): Promise<ResourceContent[]> {
    const module =
      [...this.resources].find(([, list]) => list.some((r) => r.server === server))?.[0] ?? this.modules[0];
    if (!module) throw new Error(`no MCP server "${server}" (none is configured: mcp.json)`);
    const data = await this.send(module, RESOURCE_EVENT, { server, uri }).catch((err: unknown) => {
      // The module's own words (no such server, the server's error) are what the user needs to read.
      if (err instanceof WorkerError && err.reason === "error_reply")
        throw new Error(err.detail.replace(/^the worker answered with an error: /, ""));
      throw err;
    });
    const reply = ResourceReplyData.safeParse(data);
    if (!reply.success) throw new Error(`module "${module}" sent an invalid resource reply`);
    return reply.data.contents;
  }

  /**
   * Ask every module that declares tools at run time for its current list (waiting at most `waitMs` for
   * tools still on their way). A module that fails is a notice; its tools stay as they were.
   */
  async refresh(waitMs: number, modules: readonly ModuleName[]): Promise<RuntimeRefresh> {
    const out: RuntimeRefresh = { notices: [], changed: false, status: {} };
    await Promise.all(
      modules.map(async (module) => {
        try {
          const data = { wait_ms: waitMs, revision: this.revisions.get(module) ?? 0 };
          const reply = ToolsReplyData.parse(await this.send(module, TOOLS_EVENT, data));
          out.notices.push(...(reply.notices ?? []));
          if (reply.status) out.status[module] = reply.status;
          if (reply.watch === true) this.watchable.add(module);
          else this.watchable.delete(module);
          if (reply.revision !== this.revisions.get(module)) {
            if (!reply.runtime_tools)
              throw new Error(
                `its reply has revision ${reply.revision} but no runtime_tools (required when it changed)`,
              );
            out.changed = true;
            this.revisions.set(module, reply.revision);
            out.notices.push(...this.accept(module, reply.runtime_tools));
            this.prompts.set(module, reply.prompts ?? []);
            this.resources.set(module, reply.resources ?? []);
          }
        } catch (err) {
          // Said once: the next request tries again (a fresh process), and says only what is new.
          const line = `${module}: its tools are unavailable: ${(err as Error).message}`;
          if (!this.saidFailures.has(line)) out.notices.push(line);
          this.saidFailures.add(line);
        }
      }),
    );
    // What the handshakes said (they ran during this refresh, or before it) comes first.
    out.notices.unshift(...this.runtimeNotices.splice(0));
    return out;
  }

  /**
   * Wait (at most `waitMs`) for module `module`'s tools to change from the revision the core last saw:
   * true when they did, false when nothing changed in that time, undefined when the module does not
   * watch (ask it with refresh before each request). Rejects when the module fails.
   */
  async watch(module: ModuleName, waitMs: number): Promise<boolean | undefined> {
    if (!this.watchable.has(module)) return undefined;
    const revision = this.revisions.get(module) ?? 0;
    const data = await this.send(module, TOOLS_WATCH_EVENT, { revision, wait_ms: waitMs }, undefined, {
      deadlineMs: waitMs + WATCH_GRACE_MS,
    });
    const reply = ToolsWatchReplyData.parse(data);
    return reply.current === undefined ? undefined : reply.current !== revision;
  }

  private accept(module: ModuleName, decls: readonly RuntimeToolDecl[]): string[] {
    const namespace = MODULES[module].runtimeTools?.namespace;
    return namespace ? this.runtime.set(module, namespace, decls) : [];
  }
}
