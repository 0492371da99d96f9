// The core's side of tools declared at run time: starting the modules that declare them without delaying
// the prompt, asking them for their current tools before each model request, and what the mcp module needs
// from the core (the variables its configuration refers to; a project file the user has not accepted).

import { existsSync } from "node:fs";
import { projectTrustRefusal, untrustedProjectFiles } from "../config/project-trust.ts";
import { UserError } from "../contract/errors.ts";
import type { EmitEvent } from "../contract/events.ts";
import type { Manifest } from "../contract/manifest.ts";
import { CLIENT_MCP_ENV, MCP_PROJECT_FILE, type McpServer } from "../contract/mcp.ts";
import type { ToolResult } from "../contract/protocol.ts";
import type { ModuleName } from "../contract/registry.ts";
import type { RuntimePromptDecl, RuntimeToolDecl } from "../contract/runtime-tools.ts";
import {
  describeTransport,
  type McpServerEntry,
  projectMcpFile,
  readMcpFile,
  serverVariables,
  userMcpFile,
} from "../lib/mcp-config.ts";
import type { ApprovalPolicy, ApprovalRequest } from "../tools/approvals.ts";
import type { DeclaredTool, DeclaredTools } from "../tools/declared-tools.ts";
import type { RuntimeRefresh, WorkerHost } from "../worker/host.ts";
import { progressLines } from "./progress-lines.ts";
import type { ResourceSource } from "./resource-mentions.ts";
import { ToolsWatch } from "./tools-watch.ts";

export interface McpSetup {
  /** what the mcp worker's environment gets beyond the allow-list: the variables its servers refer to */
  env: Record<string, string>;
  /** lines to show once the session is open (an untrusted project file) */
  notices: string[];
  /**
   * The built-in mcp module has nothing to do (neither mcp.json nor .mcp.json exists): it is not started,
   * so a user without MCP servers pays no process and no poll for it.
   */
  idle: boolean;
}

/** The command that accepts a workspace's .mcp.json. */
export const MCP_TRUST_COMMAND = "i mcp trust";

export function mcpSetup(
  manifest: Manifest,
  configDir: string,
  workspace: string,
  clientServers?: Record<string, McpServer>,
): McpSetup {
  const out: McpSetup = { env: {}, notices: [], idle: false };
  const m = manifest.modules.find((x) => x.name === "mcp");
  const offered = Object.keys(clientServers ?? {});
  if (!m) {
    if (offered.length > 0)
      out.notices.push(
        `the editor's MCP servers (${offered.join(", ")}) are not started: the profile "${manifest.profile}" has no mcp module`,
      );
    return out;
  }
  // Servers the user configured in the editor (ACP session/new): trusted like config_dir/mcp.json's.
  if (offered.length > 0) out.env[CLIENT_MCP_ENV] = JSON.stringify({ mcpServers: clientServers });
  out.idle =
    m.builtin &&
    offered.length === 0 &&
    !existsSync(userMcpFile(configDir)) &&
    !existsSync(projectMcpFile(workspace));
  if (out.idle) return out;
  let entries: McpServerEntry[] = [];
  if (m.builtin) entries = readMcpFile(userMcpFile(configDir), "user");
  // The project's variables are passed even before its file is accepted: the worker reads nothing of
  // the file until then, and an acceptance during the session can then start its servers.
  let project: McpServerEntry[] = [];
  try {
    project = readMcpFile(projectMcpFile(workspace), "project");
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
  }
  entries = [...entries, ...project];
  for (const name of serverVariables(entries)) {
    const v = process.env[name];
    if (v !== undefined) out.env[name] = v;
  }
  // What the file would start is said with the refusal: the user decides on the commands, not the name.
  const starts = project.map((e) => `${e.name} (${describeTransport(e.config)})`).join(", ");
  for (const f of untrustedProjectFiles(configDir, workspace, [MCP_PROJECT_FILE]))
    out.notices.push(
      f.problem
        ? projectTrustRefusal(f, MCP_TRUST_COMMAND)
        : `${projectTrustRefusal(f, MCP_TRUST_COMMAND)}${starts ? `; it would start ${starts}` : ""}; in the console, /mcp trust`,
    );
  return out;
}

export interface Refresher {
  refresh(): Promise<void>;
  status(): Promise<RuntimeRefresh["status"]>;
  /** the prompts the modules offer (slash commands), as of the last refresh */
  prompts(): RuntimePromptDecl[];
  /** a prompt's text: `argsText` is `value value…` in the prompt's argument order, or `name=value` words */
  expandPrompt(name: string, argsText: string): Promise<string>;
  /** the resources the modules offer (as of the last refresh) and reading one (`@SERVER:URI`) */
  resources: ResourceSource;
}

/** `a b` or `key=value c` as the prompt's arguments: positional words fill the arguments in order. */
export function promptArguments(decl: RuntimePromptDecl, argsText: string): Record<string, string> {
  const out: Record<string, string> = {};
  const words = argsText.trim() === "" ? [] : argsText.trim().split(/\s+/);
  const free = decl.arguments.map((a) => a.name);
  const positional: string[] = [];
  for (const w of words) {
    const eq = w.indexOf("=");
    const key = eq > 0 ? w.slice(0, eq) : "";
    if (key && free.includes(key)) out[key] = w.slice(eq + 1);
    else positional.push(w);
  }
  const open = free.filter((n) => !(n in out));
  positional.forEach((w, i) => {
    // The last argument takes the rest: a prompt's free text is often one argument.
    const name = i < open.length - 1 ? open[i] : open[open.length - 1];
    if (name === undefined) return;
    out[name] = i < open.length - 1 || !(name in out) ? w : `${out[name]} ${w}`;
  });
  const missing = decl.arguments.filter((a) => a.required && !(a.name in out)).map((a) => a.name);
  if (missing.length)
    throw new Error(
      `/${decl.name} needs ${missing.join(", ")}: /${decl.name} ${decl.arguments.map((a) => (a.required ? a.name.toUpperCase() : `[${a.name}]`)).join(" ")}`,
    );
  return out;
}

/** A declared tool's own deadline is the module's to enforce (it answers with a tool error); this is later. */
const DECLARED_GRACE_MS = 2_000;
const DEFAULT_DECLARED_DEADLINE_MS = 60_000;

/** The call's arguments in one line for the approval question. */
function argsSummary(args: unknown): string {
  const text = JSON.stringify(args ?? {});
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

/**
 * A runtime declaration as the dispatch takes it: approved like bash (unless its configuration allows it
 * and the session is not read-only), under its own deadline, and cancelled in the module when the turn is.
 */
/** A result's images replaced by a note, for a model that takes none. */
export function withoutImages(r: ToolResult): ToolResult {
  if (typeof r.content === "string" || !r.content.some((p) => p.type === "image")) return r;
  const content = r.content.map((p) =>
    p.type === "image"
      ? { type: "text" as const, text: `[image ${p.media_type} left out: this model takes no images]` }
      : p,
  );
  return { ...r, content };
}

export function declaredTool(
  host: WorkerHost,
  decl: RuntimeToolDecl,
  policy: ApprovalPolicy,
  images = true,
): DeclaredTool {
  const auto = decl.approval === "auto" && policy !== "none";
  return {
    decl: { name: decl.name, description: decl.description, input_schema: decl.input_schema },
    deadlineMs: (decl.timeout_ms ?? DEFAULT_DECLARED_DEADLINE_MS) + DECLARED_GRACE_MS,
    // Unknown: an MCP tool may change anything, files included.
    mayChange: true,
    call: (args, { callId, signal, report }) => {
      const onAbort = () => host.cancelTool(decl.name, callId);
      signal.addEventListener("abort", onAbort, { once: true });
      const lines = report ? progressLines(report) : undefined;
      return host
        .callTool(decl.name, args, callId, lines ? { onProgress: lines.onProgress } : {})
        .then((r) => (images ? r : withoutImages(r)))
        .finally(() => {
          signal.removeEventListener("abort", onAbort);
          lines?.stop();
        });
    },
    ...(auto
      ? {}
      : {
          approval: (args: unknown): ApprovalRequest => ({
            tool: "tool",
            name: decl.name,
            summary: argsSummary(args),
            ...(decl.title ? { title: decl.title } : {}),
            ...(decl.group ? { group: decl.group } : {}),
          }),
        }),
  };
}

/**
 * Undefined when no module declares tools at run time. Otherwise those modules start now (in the
 * background: the prompt is not delayed), and `refresh` asks them for their current tools and hands them
 * to the dispatch's declared tools, emitting what the modules had to say as warnings.
 */
export function runtimeToolsRefresher(
  host: WorkerHost,
  declared: DeclaredTools,
  policy: ApprovalPolicy,
  emit: EmitEvent,
  /** the model takes images (config.json `images` is not "omit") */
  images = true,
  /** modules not to start (the built-in mcp with no configuration) */
  idle: readonly ModuleName[] = [],
): Refresher | undefined {
  const modules = host.runtimeModules().filter((m) => !idle.includes(m));
  if (modules.length === 0) return undefined;
  // Started and asked at once, not awaited: the prompt is not delayed, a server that fails says so
  // early, and its prompts (slash commands) are known before the first message; a start failure is
  // reported by this refresh and tried again by the next.
  const watch = new ToolsWatch(host);
  const first = host
    .refreshTools(undefined, modules)
    .then((r) => {
      apply(r);
      watch.asked(modules);
    })
    .catch(() => {});
  const apply = (r: RuntimeRefresh) => {
    for (const message of r.notices) emit({ type: "notice", level: "warn", message });
    // The usual turn: nothing changed, nothing to rebuild.
    if (!r.changed) return r.status;
    for (const [module, decls] of host.runtimeDecls())
      declared.declare(
        module,
        decls.map((d) => declaredTool(host, d, policy, images)),
      );
    return r.status;
  };
  return {
    refresh: async () => {
      await first;
      // A module watching its tools is asked only once it said they changed.
      const due = watch.due(modules);
      if (due.length === 0) return;
      apply(await host.refreshTools(undefined, due));
      watch.asked(due);
    },
    status: async () => apply(await host.refreshTools(0, modules)),
    prompts: () => host.runtimePrompts().map((p) => p.decl),
    expandPrompt: (name, argsText) => {
      const decl = host.runtimePrompts().find((p) => p.decl.name === name)?.decl;
      if (!decl) return Promise.reject(new Error(`no prompt /${name}`));
      return host.getPrompt(name, promptArguments(decl, argsText));
    },
    resources: {
      list: () => host.runtimeResources(),
      read: async (server, uri) => {
        await first;
        return host.readResource(server, uri);
      },
    },
  };
}
