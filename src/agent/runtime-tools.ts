// The core's side of tools declared at run time: starting the modules that declare them without delaying
// the prompt, asking them for their current tools before each model request, and what the mcp module needs
// from the core (the variables its configuration refers to; a project file the user has not accepted).

import { projectTrustRefusal, untrustedProjectFiles } from "../config/project-trust.ts";
import { UserError } from "../contract/errors.ts";
import type { EmitEvent } from "../contract/events.ts";
import type { Manifest } from "../contract/manifest.ts";
import { MCP_PROJECT_FILE } from "../contract/mcp.ts";
import type { ToolResult } from "../contract/protocol.ts";
import type { RuntimeToolDecl } from "../contract/runtime-tools.ts";
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
import type { ToolReport } from "../tools/types.ts";
import type { RuntimeRefresh, WorkerHost } from "../worker/host.ts";

export interface McpSetup {
  /** what the mcp worker's environment gets beyond the allow-list: the variables its servers refer to */
  env: Record<string, string>;
  /** lines to show once the session is open (an untrusted project file) */
  notices: string[];
}

/** The command that accepts a workspace's .mcp.json. */
export const MCP_TRUST_COMMAND = "i mcp trust";

export function mcpSetup(manifest: Manifest, configDir: string, workspace: string): McpSetup {
  const out: McpSetup = { env: {}, notices: [] };
  const m = manifest.modules.find((x) => x.name === "mcp");
  if (!m) return out;
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
      `${projectTrustRefusal(f, MCP_TRUST_COMMAND)}${starts ? `; it would start ${starts}` : ""}; in the console, /mcp trust`,
    );
  return out;
}

export interface Refresher {
  refresh(): Promise<void>;
  status(): Promise<RuntimeRefresh["status"]>;
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

/** How often a running call's progress is asked for (the console's activity line shows it). */
const PROGRESS_POLL_MS = 1_000;

/** Ask for the call's progress now and then, and show each new figure as a line of the tool's output. */
function watchProgress(
  host: WorkerHost,
  name: string,
  callId: string,
  report: (r: ToolReport) => void,
): ReturnType<typeof setInterval> {
  let last = "";
  let asking = false;
  return setInterval(() => {
    if (asking) return;
    asking = true;
    host
      .toolProgress(name, callId)
      .then((p) => {
        if (!p) return;
        const of = p.total !== undefined ? `${p.progress}/${p.total}` : `${p.progress}`;
        const line = `progress ${of}${p.message ? `: ${p.message}` : ""}`;
        if (line !== last) report({ kind: "output", text: `${line}\n` });
        last = line;
      })
      .finally(() => {
        asking = false;
      });
  }, PROGRESS_POLL_MS);
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
      const watch = report ? watchProgress(host, decl.name, callId, report) : undefined;
      return host
        .callTool(decl.name, args, callId)
        .then((r) => (images ? r : withoutImages(r)))
        .finally(() => {
          signal.removeEventListener("abort", onAbort);
          if (watch) clearInterval(watch);
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
): Refresher | undefined {
  const modules = host.runtimeModules();
  if (modules.length === 0) return undefined;
  // Started, not awaited: a start failure is reported by the first refresh, which tries again.
  host.start(modules).catch(() => {});
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
      apply(await host.refreshTools());
    },
    status: async () => apply(await host.refreshTools(0)),
  };
}
