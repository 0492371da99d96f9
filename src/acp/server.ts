// `i acp`: an Agent Client Protocol agent on stdio, on the official SDK's `agent()` connection. Each ACP
// session is an ordinary `i` session (resumable with `i -r ID`, listed by `i sessions`) driven through
// the same facade as the console. Faults end cleanly: stdin closing, SIGTERM or SIGHUP cancel every
// running turn, save every session, end every child process and exit within two seconds.
import {
  type McpServer as AcpMcpServer,
  type AgentContext,
  type AnyMessage,
  agent,
  type ClientCapabilities,
  type InitializeResponse,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
  type SessionInfo,
} from "@agentclientprotocol/sdk";
import type { SessionMeta, SessionOptions } from "../agent/agent-session.ts";
import { errorMessage, UserError } from "../contract/errors.ts";
import { startupMark } from "../lib/startup-trace.ts";
import { AcpSession } from "./acp-session.ts";
import { clientMcpServers } from "./client-mcp.ts";
import { isMode } from "./modes.ts";

export interface AcpDeps {
  /** the command line's flags: model, provider, base URL, profile, approvals… (the workspace is the cwd) */
  options: Omit<SessionOptions, "workspace" | "resume" | "continue">;
  version: string;
  /** config_dir: where the user's skills are found */
  configDir: string;
  /** the configured model takes images */
  images: boolean;
  /** saved sessions of a workspace (every workspace when undefined), newest first */
  listSessions(cwd: string | undefined): SessionMeta[];
}

/** How long shutting down may take before the process exits anyway. */
const SHUTDOWN_MS = 1800;
const PAGE = 100;

export function initializeResponse(deps: AcpDeps): InitializeResponse {
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: deps.images, audio: false, embeddedContext: true },
      mcpCapabilities: { http: true, sse: true },
      sessionCapabilities: { list: {}, resume: {}, close: {} },
    },
    authMethods: [
      {
        id: "api-key",
        name: "API key",
        description:
          "a key in I_API_KEY, OPENAI_API_KEY or ANTHROPIC_API_KEY in the agent's environment, or stored by `i auth`",
      },
      { id: "i-auth", name: "Log in with i auth", type: "terminal", args: ["auth"] },
    ],
    agentInfo: { name: "i", title: "i", version: deps.version },
  };
}

/** A session that cannot be opened, as the client should show it. */
function openError(err: unknown): RequestError {
  const message = errorMessage(err);
  if (/^(not logged in: )?no API key/.test(message)) return RequestError.authRequired(undefined, message);
  if (err instanceof UserError) return RequestError.invalidParams(undefined, message);
  return RequestError.internalError(undefined, message);
}

export class AcpServer {
  private readonly sessions = new Map<string, AcpSession>();
  private caps: ClientCapabilities | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly deps: AcpDeps) {}

  private session(id: string): AcpSession {
    const s = this.sessions.get(id);
    if (!s)
      throw new RequestError(
        -32002,
        `no session "${id}" is open on this connection; create one with session/new or open it with session/load`,
        { sessionId: id },
      );
    return s;
  }

  private async open(
    client: AgentContext,
    cwd: string,
    servers: readonly AcpMcpServer[] | undefined,
    resume?: string,
  ): Promise<AcpSession> {
    if (!cwd.startsWith("/") && !/^[a-zA-Z]:[\\/]/.test(cwd))
      throw RequestError.invalidParams(
        undefined,
        `cwd "${cwd}" is not an absolute path; send the project's absolute path`,
      );
    if (resume) await this.sessions.get(resume)?.close();
    const s = new AcpSession(
      {
        ...this.deps.options,
        workspace: cwd,
        ...(resume ? { resume } : {}),
        mcpServers: clientMcpServers(servers),
      },
      client,
      this.caps,
      this.deps.configDir,
    );
    try {
      await s.facade.open();
    } catch (err) {
      if (resume && /no session|not found|does not exist/i.test(errorMessage(err)))
        throw RequestError.resourceNotFound(resume);
      throw openError(err);
    }
    this.sessions.set(s.id, s);
    return s;
  }

  private list(
    cwd: string | undefined,
    cursor: string | undefined,
  ): { sessions: SessionInfo[]; nextCursor?: string } {
    const all = this.deps.listSessions(cwd ?? undefined).filter((m) => !m.parent);
    const start = cursor ? Number.parseInt(cursor, 10) : 0;
    if (!Number.isInteger(start) || start < 0)
      throw RequestError.invalidParams(undefined, `cursor "${cursor}" is not one this agent gave`);
    const page = all.slice(start, start + PAGE);
    return {
      sessions: page.map((m) => ({
        sessionId: m.id,
        cwd: m.workspace,
        ...(m.title ? { title: m.title } : {}),
        updatedAt: m.updated,
      })),
      ...(start + PAGE < all.length ? { nextCursor: String(start + PAGE) } : {}),
    };
  }

  app() {
    return agent({ name: "i" })
      .onRequest(methods.agent.initialize, ({ params }) => {
        this.caps = params.clientCapabilities;
        startupMark("acp initialize");
        return initializeResponse(this.deps);
      })
      .onRequest(methods.agent.authenticate, () => ({}))
      .onRequest(methods.agent.session.new, async ({ params, client }) => {
        startupMark("acp session/new");
        const s = await this.open(client, params.cwd, params.mcpServers);
        setTimeout(() => s.release(), 0);
        startupMark("acp session/new answered");
        return { sessionId: s.id, modes: s.modes(), configOptions: s.configOptions() };
      })
      .onRequest(methods.agent.session.load, async ({ params, client }) => {
        const s = await this.open(client, params.cwd, params.mcpServers, params.sessionId);
        // The whole conversation goes out before the answer, as the protocol asks.
        s.release(true);
        return { modes: s.modes(), configOptions: s.configOptions() };
      })
      .onRequest(methods.agent.session.resume, async ({ params, client }) => {
        const s = await this.open(client, params.cwd, params.mcpServers, params.sessionId);
        setTimeout(() => s.release(), 0);
        return { modes: s.modes(), configOptions: s.configOptions() };
      })
      .onRequest(methods.agent.session.list, ({ params }) =>
        this.list(params.cwd ?? undefined, params.cursor ?? undefined),
      )
      .onRequest(methods.agent.session.close, async ({ params }) => {
        const s = this.session(params.sessionId);
        this.sessions.delete(params.sessionId);
        await s.close();
        return {};
      })
      .onRequest(methods.agent.session.setMode, ({ params }) => {
        if (!isMode(params.modeId))
          throw RequestError.invalidParams(
            undefined,
            `no mode "${params.modeId}"; the modes are ask, edits, all, none`,
          );
        this.session(params.sessionId).setMode(params.modeId);
        return {};
      })
      .onRequest(methods.agent.session.setConfigOption, ({ params }) => {
        const s = this.session(params.sessionId);
        const value = String(params.value);
        if (params.configId === "mode") {
          if (!isMode(value))
            throw RequestError.invalidParams(
              undefined,
              `no mode "${value}"; the modes are ask, edits, all, none`,
            );
          s.setMode(value);
        } else if (params.configId === "model") s.setModel(value);
        else
          throw RequestError.invalidParams(
            undefined,
            `no option "${params.configId}"; the options are mode and model`,
          );
        return { configOptions: s.configOptions() };
      })
      .onRequest(methods.agent.session.prompt, async ({ params }) => ({
        stopReason: await this.session(params.sessionId).prompt(params.prompt),
      }))
      .onNotification(methods.agent.session.cancel, ({ params }) => {
        this.sessions.get(params.sessionId)?.cancel();
      });
  }

  /** Cancel every turn, save and close every session, once. */
  shutdown(): Promise<void> {
    this.closing ??= Promise.all([...this.sessions.values()].map((s) => s.close())).then(() => {
      this.sessions.clear();
    });
    return this.closing;
  }
}

function stdinStream(): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(c) {
      // After the connection closed, what still arrives has no one to read it.
      const safely = (f: () => void) => {
        try {
          f();
        } catch {}
      };
      process.stdin.on("data", (d: Buffer) => safely(() => c.enqueue(new Uint8Array(d))));
      process.stdin.on("end", () => safely(() => c.close()));
      process.stdin.on("error", (e) => safely(() => c.error(e)));
    },
  });
}

function stdoutStream(): WritableStream<Uint8Array> {
  return new WritableStream<Uint8Array>({
    write: (chunk) =>
      new Promise<void>((resolve, reject) => process.stdout.write(chunk, (e) => (e ? reject(e) : resolve()))),
  });
}

function messageWriter(): WritableStream<AnyMessage> {
  return new WritableStream<AnyMessage>({
    write: (message) =>
      new Promise<void>((resolve, reject) =>
        process.stdout.write(`${JSON.stringify(message)}\n`, (e) => (e ? reject(e) : resolve())),
      ),
  });
}

/** Serve ACP on stdin/stdout until the client goes away or a signal ends the agent; resolves to the exit code. */
export async function serveAcp(deps: AcpDeps): Promise<number> {
  const server = new AcpServer(deps);
  // Reading (line splitting, parse errors, size limits) is the SDK's; writing is one direct write per
  // message: the SDK's encoder would chain a writer lock and promises through a byte stream for each
  // update, several per turn.
  const stream = { ...ndJsonStream(stdoutStream(), stdinStream()), writable: messageWriter() };
  const connection = server.app().connect(stream);
  let code = 0;
  const stop = new Promise<void>((resolve) => {
    // Kept registered while shutting down: a second signal changes nothing, and the process groups'
    // last-resort handler (runtime/process-group.ts) sees the signal is handled.
    const onSignal = (sig: NodeJS.Signals) => {
      if (code === 0) code = sig === "SIGINT" ? 130 : sig === "SIGHUP" ? 129 : 143;
      resolve();
    };
    for (const sig of ["SIGTERM", "SIGHUP", "SIGINT"] as const) process.on(sig, onSignal);
    connection.closed.then(resolve, resolve);
  });
  await stop;
  // Past the deadline the process exits anyway: an agent an editor closed must not linger.
  const hard = setTimeout(() => process.exit(code), SHUTDOWN_MS);
  hard.unref?.();
  await server.shutdown().catch(() => {});
  connection.close();
  clearTimeout(hard);
  // A signal leaves stdin open: nothing more is read from it. Whatever else still holds the event loop
  // has a moment, then the process ends all the same.
  process.stdin.destroy();
  setTimeout(() => process.exit(code), 200).unref?.();
  return code;
}
