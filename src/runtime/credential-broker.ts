// Hands the API keys to a child `i` session (a `task`) without any tool process, or the worker that starts
// the child, seeing them: the core listens on a socket in a private directory (mode 0700) and mints a
// one-time ticket per task; the child presents it once and gets the keys over the socket. A ticket is
// random, expires in a minute and works once, so one seen in transit is worthless after the child used it
// (and a child whose ticket was taken first fails loudly). No key is ever in an environment, an argv or a
// file.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const TICKET_TTL_MS = 60_000;
const MAX_REQUEST_BYTES = 256;

export class CredentialBroker {
  private server: Server | undefined;
  private dir: string | undefined;
  private path: string | undefined;
  private readonly tickets = new Map<string, number>();

  constructor(private readonly credentials: () => Record<string, string>) {}

  /** A one-time ticket and the socket to present it at (the server starts on first use). */
  async mint(): Promise<{ socket: string; ticket: string }> {
    const socket = await this.listen();
    const ticket = randomBytes(32).toString("hex");
    this.tickets.set(ticket, Date.now() + TICKET_TTL_MS);
    return { socket, ticket };
  }

  private async listen(): Promise<string> {
    if (this.path) return this.path;
    let path: string;
    if (process.platform === "win32") path = `\\\\.\\pipe\\i-credentials-${randomBytes(12).toString("hex")}`;
    else {
      this.dir = mkdtempSync(join(tmpdir(), "i-cred-"));
      path = join(this.dir, "s");
    }
    const server = createServer((conn) => {
      let got = "";
      conn.on("error", () => {});
      conn.on("data", (c: Buffer) => {
        got += c.toString("utf8");
        if (got.length > MAX_REQUEST_BYTES) return void conn.destroy();
        const nl = got.indexOf("\n");
        if (nl === -1) return;
        const ticket = got.slice(0, nl).trim();
        const expires = this.tickets.get(ticket);
        this.tickets.delete(ticket);
        if (expires === undefined || expires < Date.now())
          conn.end(`${JSON.stringify({ error: "unknown or used ticket" })}\n`);
        else conn.end(`${JSON.stringify({ credentials: this.credentials() })}\n`);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, () => resolve());
    });
    server.unref();
    this.server = server;
    this.path = path;
    return path;
  }

  close(): void {
    this.server?.close();
    this.server = undefined;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
    this.path = undefined;
    this.tickets.clear();
  }
}

/** In the child: present the ticket, get the keys (throws with one line when refused or unreachable). */
export function fetchCredentials(socket: string, ticket: string): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const conn = createConnection(socket);
    let got = "";
    const timer = setTimeout(() => {
      conn.destroy();
      reject(new Error("the parent session did not hand over the API key in time"));
    }, 5000);
    conn.on("connect", () => conn.write(`${ticket}\n`));
    conn.on("data", (c: Buffer) => {
      got += c.toString("utf8");
    });
    conn.on("error", (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot reach the parent session for the API key: ${err.message}`));
    });
    conn.on("close", () => {
      clearTimeout(timer);
      try {
        const reply = JSON.parse(got) as { credentials?: Record<string, string>; error?: string };
        if (reply.credentials) resolve(reply.credentials);
        else
          reject(
            new Error(`the parent session refused the API key hand-over: ${reply.error ?? "no reason"}`),
          );
      } catch {
        reject(new Error("the parent session's API key hand-over was cut off"));
      }
    });
  });
}
