// Opening one MCP session with the official SDK, loaded on first use (nothing else of `i` pays for it).
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { McpServer } from "../../src/contract/mcp.ts";
import { serverEnv } from "./env.ts";
import { MessageLines, type ReadBufferLike } from "./message-lines.ts";

type Sdk = {
  Client: typeof import("@modelcontextprotocol/sdk/client/index.js").Client;
  StdioClientTransport: typeof import("@modelcontextprotocol/sdk/client/stdio.js").StdioClientTransport;
  StreamableHTTPClientTransport: typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js").StreamableHTTPClientTransport;
  SSEClientTransport: typeof import("@modelcontextprotocol/sdk/client/sse.js").SSEClientTransport;
  ToolListChangedNotificationSchema: typeof import("@modelcontextprotocol/sdk/types.js").ToolListChangedNotificationSchema;
  ResourceListChangedNotificationSchema: typeof import("@modelcontextprotocol/sdk/types.js").ResourceListChangedNotificationSchema;
  AjvJsonSchemaValidator: typeof import("@modelcontextprotocol/sdk/validation/ajv").AjvJsonSchemaValidator;
  deserializeMessage: typeof import("@modelcontextprotocol/sdk/shared/stdio.js").deserializeMessage;
};

let sdk: Promise<Sdk> | undefined;

export function loadSdk(): Promise<Sdk> {
  sdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("@modelcontextprotocol/sdk/validation/ajv"),
    import("@modelcontextprotocol/sdk/shared/stdio.js"),
  ]).then(([c, s, h, e, t, v, r]) => ({
    Client: c.Client,
    StdioClientTransport: s.StdioClientTransport,
    StreamableHTTPClientTransport: h.StreamableHTTPClientTransport,
    SSEClientTransport: e.SSEClientTransport,
    ToolListChangedNotificationSchema: t.ToolListChangedNotificationSchema,
    ResourceListChangedNotificationSchema: t.ResourceListChangedNotificationSchema,
    AjvJsonSchemaValidator: v.AjvJsonSchemaValidator,
    deserializeMessage: r.deserializeMessage,
  }));
  return sdk;
}

export type McpClient = InstanceType<Sdk["Client"]>;

/** A server's stderr log, bounded: a chatty server cannot fill the disk. */
const MAX_LOG_BYTES = 8 * 1024 * 1024;

export function openLog(configDir: string, server: string): WriteStream | undefined {
  try {
    const dir = join(configDir, "logs");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return createWriteStream(join(dir, `mcp-${server}.log`), { flags: "a", mode: 0o600 });
  } catch {
    return undefined;
  }
}

export interface Connection {
  client: McpClient;
  /** the server's process id, for stdio */
  pid?: number;
}

export interface ConnectOptions {
  name: string;
  config: McpServer;
  workspace: string;
  configDir: string;
  log?: WriteStream;
  /** called once when the session ends without our asking (a crash, the server exiting) */
  onLost: (why: string) => void;
  onToolsChanged: () => void;
  onResourcesChanged: () => void;
}

/** Connect and initialize within `timeoutMs`; rejects with the cause in a few words. */
export async function connect(opts: ConnectOptions, timeoutMs: number): Promise<Connection> {
  const s = await loadSdk();
  const client = new s.Client({ name: "i", version: "1" }, { capabilities: {} });
  const c = opts.config;
  let transport:
    | InstanceType<Sdk["StdioClientTransport"]>
    | InstanceType<Sdk["StreamableHTTPClientTransport"]>
    | InstanceType<Sdk["SSEClientTransport"]>;
  let stdio: InstanceType<Sdk["StdioClientTransport"]> | undefined;
  if ("command" in c) {
    const cwd = c.cwd ? (isAbsolute(c.cwd) ? c.cwd : resolve(opts.workspace, c.cwd)) : opts.workspace;
    stdio = new s.StdioClientTransport({
      command: c.command,
      args: c.args ?? [],
      env: serverEnv(process.env, c.env),
      cwd,
      stderr: "pipe",
    });
    // A message past the SDK's 10 MB read buffer would close the transport and kill the server.
    (stdio as unknown as { _readBuffer: ReadBufferLike })._readBuffer = new MessageLines(
      s.deserializeMessage,
    );
    transport = stdio;
    let logged = 0;
    stdio.stderr?.on("data", (chunk: Buffer) => {
      if (logged > MAX_LOG_BYTES) return;
      logged += chunk.length;
      opts.log?.write(chunk);
    });
  } else {
    const init = c.headers ? { headers: c.headers } : undefined;
    const url = new URL(c.url);
    transport =
      c.type === "sse"
        ? new s.SSEClientTransport(url, init ? { requestInit: init } : {})
        : new s.StreamableHTTPClientTransport(url, init ? { requestInit: init } : {});
  }
  let closing = false;
  let exited = false;
  let firstError: string | undefined;
  client.onclose = () => {
    if (closing) return;
    exited = true;
    opts.onLost(stdio ? "the server exited" : "the connection closed");
  };
  // What went wrong on the wire (a line that is not JSON-RPC, an HTTP status) says more than a timeout.
  client.onerror = (err) => {
    if (!closing) firstError ??= err.message.replace(/\s+/g, " ").slice(0, 200);
  };
  client.setNotificationHandler(s.ToolListChangedNotificationSchema, async () => opts.onToolsChanged());
  client.setNotificationHandler(s.ResourceListChangedNotificationSchema, async () =>
    opts.onResourcesChanged(),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_r, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to initialize within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([client.connect(transport, { timeout: timeoutMs }), timeout]);
  } catch (err) {
    closing = true;
    await client.close().catch(() => {});
    const base = describeFailure(err, "command" in c ? undefined : c.url);
    const why = firstError && !base.includes(firstError) ? `${base} (${firstError})` : base;
    const log = stdio && exited ? `; its stderr is in logs/mcp-${opts.name}.log` : "";
    throw new Error(
      `${stdio && exited && /Connection closed/i.test(base) ? "it exited during the handshake" : why}${log}`,
    );
  } finally {
    clearTimeout(timer);
  }
  const close = client.close.bind(client);
  client.close = async () => {
    closing = true;
    await close();
  };
  return { client, ...(stdio?.pid ? { pid: stdio.pid } : {}) };
}

/** An HTTP status says what went wrong better than the SDK's wording of it. */
function describeFailure(err: unknown, url: string | undefined): string {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown }).code;
  if (url && typeof code === "number" && code >= 400 && code < 600) {
    const hint = code === 401 || code === 403 ? "; check the token in its headers" : "";
    return `HTTP ${code} from ${url}${hint} (${message})`;
  }
  return message;
}
