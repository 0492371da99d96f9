// Drives `i acp` (the real CLI, a child process) with the ACP SDK's own client connection, against the mock
// model server: every session/update is kept, permission questions are answered by the test's rule.
import { type ChildProcess, spawn } from "node:child_process";
import {
  type ClientConnection,
  type ContentBlock,
  client,
  type McpServer,
  methods,
  ndJsonStream,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import { makeRig, type Rig, type RigOptions } from "../agent/rig.ts";
import { MAIN } from "../helpers/cli.ts";

export interface AcpRig {
  rig: Rig;
  child: ChildProcess;
  conn: ClientConnection;
  updates: SessionNotification[];
  permissions: RequestPermissionRequest[];
  stderr: () => string;
  /** the agent's exit: code and how long after stdin closed */
  exited: Promise<number | null>;
  close(): Promise<void>;
}

export interface AcpRigOptions extends RigOptions {
  /** answer to each permission question (default: allow once) */
  answer?: (req: RequestPermissionRequest) => RequestPermissionResponse | Promise<RequestPermissionResponse>;
  /** the runtime that runs the CLI (default: this Bun), e.g. [deno, "run", "-A"] */
  runner?: string[];
  /** extra `i acp` flags */
  args?: string[];
  /** serve terminal/* by running the commands here; what was created is recorded in it */
  terminals?: TerminalLog;
  fs?: {
    read?: (path: string) => string;
    write?: (path: string, content: string) => void;
  };
}

const allowOnce = (): RequestPermissionResponse => ({ outcome: { outcome: "selected", optionId: "allow" } });

export async function startAcp(opts: AcpRigOptions): Promise<AcpRig> {
  const rig = await makeRig(opts);
  // Everything but --workspace: an ACP session's workspace is its cwd.
  const flags = rig.flags.slice(0, rig.flags.indexOf("--workspace"));
  const [file, ...pre] = opts.runner ?? [process.execPath];
  const child = spawn(file as string, [...pre, MAIN, "acp", ...flags, ...(opts.args ?? [])], {
    env: { ...process.env, ...rig.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let err = "";
  child.stderr?.on("data", (d: Buffer) => {
    err += d.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const input = new ReadableStream<Uint8Array>({
    start(c) {
      // The connection may be closed first (the test is done): later output and the end are not news.
      child.stdout?.on("data", (d: Buffer) => {
        try {
          c.enqueue(new Uint8Array(d));
        } catch {}
      });
      child.stdout?.on("end", () => {
        try {
          c.close();
        } catch {}
      });
    },
  });
  const output = new WritableStream<Uint8Array>({
    write: (chunk) => new Promise<void>((resolve) => child.stdin?.write(chunk, () => resolve())),
    close: () => {
      child.stdin?.end();
    },
  });
  const app = client({ name: "test" })
    .onNotification(methods.client.session.update, ({ params }) => {
      updates.push(params);
    })
    .onRequest(methods.client.session.requestPermission, async ({ params }) => {
      permissions.push(params);
      return (opts.answer ?? allowOnce)(params);
    });
  if (opts.fs?.read) {
    const read = opts.fs.read;
    app.onRequest(methods.client.fs.readTextFile, ({ params }) => ({ content: read(params.path) }));
  }
  if (opts.fs?.write) {
    const write = opts.fs.write;
    app.onRequest(methods.client.fs.writeTextFile, ({ params }) => {
      write(params.path, params.content);
      return {};
    });
  }
  if (opts.terminals) addTerminals(app, opts.terminals);
  const conn = app.connect(ndJsonStream(output, input));
  return {
    rig,
    child,
    conn,
    updates,
    permissions,
    stderr: () => err,
    exited,
    async close() {
      conn.close();
      child.stdin?.end();
      const t = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(t);
      await rig.close();
    },
  };
}

/** initialize as an editor with the usual capabilities. */
export function initialize(a: AcpRig, caps: Record<string, unknown> = {}) {
  return a.conn.agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false, ...caps },
    clientInfo: { name: "test", version: "1" },
  });
}

export function newSession(a: AcpRig, mcpServers: McpServer[] = []) {
  return a.conn.agent.request(methods.agent.session.new, { cwd: a.rig.workspace, mcpServers });
}

export function prompt(a: AcpRig, sessionId: string, content: string | ContentBlock[]) {
  const blocks: ContentBlock[] = typeof content === "string" ? [{ type: "text", text: content }] : content;
  return a.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: blocks });
}

/** The updates of one session of one kind, in order. */
export function updatesOf<K extends SessionNotification["update"]["sessionUpdate"]>(
  a: AcpRig,
  kind: K,
): Extract<SessionNotification["update"], { sessionUpdate: K }>[] {
  return a.updates
    .map((u) => u.update)
    .filter(
      (u): u is Extract<SessionNotification["update"], { sessionUpdate: K }> => u.sessionUpdate === kind,
    );
}

/** The agent's streamed text. */
export function agentText(a: AcpRig): string {
  return updatesOf(a, "agent_message_chunk")
    .map((u) => (u.content.type === "text" ? u.content.text : ""))
    .join("");
}

/** Wait until `check` holds (updates arrive as notifications, asynchronously). */
export async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface TerminalLog {
  created: { command: string; args: string[]; cwd: string; env: Record<string, string> }[];
  killed: number;
}

/** An editor's terminals: each command run as a child process of the test, its output kept. */
function addTerminals(app: ReturnType<typeof client>, log: TerminalLog): void {
  const terms = new Map<
    string,
    { out: string; exit: Promise<{ exitCode: number | null; signal: string | null }>; kill(): void }
  >();
  app.onRequest(methods.client.terminal.create, ({ params }) => {
    const env = Object.fromEntries((params.env ?? []).map((e) => [e.name, e.value]));
    log.created.push({ command: params.command, args: params.args ?? [], cwd: params.cwd ?? "", env });
    const child = spawn(params.command, params.args ?? [], {
      cwd: params.cwd ?? undefined,
      env: { ...process.env, ...env },
      detached: true,
    });
    const id = `term-${terms.size + 1}`;
    const t = {
      out: "",
      exit: new Promise<{ exitCode: number | null; signal: string | null }>((resolve) =>
        child.on("exit", (exitCode, signal) => resolve({ exitCode, signal })),
      ),
      kill: () => {
        log.killed++;
        try {
          process.kill(-(child.pid as number), "SIGKILL");
        } catch {}
      },
    };
    child.stdout?.on("data", (d: Buffer) => {
      t.out += d.toString("utf8");
    });
    child.stderr?.on("data", (d: Buffer) => {
      t.out += d.toString("utf8");
    });
    terms.set(id, t);
    return { terminalId: id };
  });
  const get = (id: string) => {
    const t = terms.get(id);
    if (!t) throw new Error(`no terminal ${id}`);
    return t;
  };
  app.onRequest(methods.client.terminal.output, async ({ params }) => {
    const t = get(params.terminalId);
    const done = await Promise.race([
      t.exit,
      new Promise<undefined>((r) => setTimeout(() => r(undefined), 10)),
    ]);
    return { output: t.out, truncated: false, ...(done ? { exitStatus: done } : {}) };
  });
  app.onRequest(methods.client.terminal.waitForExit, async ({ params }) => get(params.terminalId).exit);
  app.onRequest(methods.client.terminal.kill, ({ params }) => {
    get(params.terminalId).kill();
    return {};
  });
  app.onRequest(methods.client.terminal.release, ({ params }) => {
    terms.get(params.terminalId)?.kill();
    terms.delete(params.terminalId);
    return {};
  });
}
