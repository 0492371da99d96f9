// Bad input gets a JSON-RPC error with a clear message, never a dead agent: a malformed line, an unknown
// method, an unknown session, a second prompt while one runs, a cwd that is no directory, a never-answered
// permission question (cancel still ends the turn).
import { afterEach, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { MAIN } from "../helpers/cli.ts";
import { type AcpRig, initialize, newSession, prompt, startAcp, until } from "./harness.ts";

let a: AcpRig | undefined;
afterEach(async () => {
  await a?.close();
  a = undefined;
});

/** Raw lines in, raw lines out: what a broken client sends. */
async function rawExchange(
  lines: string[],
  env: NodeJS.ProcessEnv,
  want: number,
): Promise<Record<string, unknown>[]> {
  const child = spawn(process.execPath, [MAIN, "acp"], { env, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString("utf8");
  });
  const count = () => out.split("\n").filter((l) => l.trim()).length;
  // One at a time: each line is answered before the next is sent (initialize first, as a client must).
  for (const [i, l] of lines.entries()) {
    child.stdin.write(`${l}\n`);
    await until(() => count() >= Math.min(i + 1, want), 10_000);
  }
  await until(() => count() >= want, 10_000);
  child.stdin.end();
  await new Promise((r) => child.on("exit", r));
  return out
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

describe("i acp: faults", () => {
  test("a malformed line and an unknown method are errors; the agent keeps serving", async () => {
    a = await startAcp({ script: [] });
    const replies = await rawExchange(
      [
        "{not json",
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } }),
        JSON.stringify({ jsonrpc: "2.0", id: 2, method: "session/teleport", params: {} }),
      ],
      { ...process.env, ...a.rig.env },
      3,
    );
    expect(
      replies.find((r) => r.id === null || (r.error as { code?: number })?.code === -32700),
    ).toBeTruthy();
    expect(replies.find((r) => r.id === 1)?.result).toMatchObject({ protocolVersion: 1 });
    expect((replies.find((r) => r.id === 2)?.error as { code: number } | undefined)?.code).toBe(-32601);
  }, 30_000);

  test("unknown session, second prompt, bad cwd: one clear error each", async () => {
    a = await startAcp({ script: [{ text: "slow", delay_ms: 1500 }, { text: "later" }] });
    await initialize(a);
    await expect(prompt(a, "no-such-session", "hi")).rejects.toThrow(/no-such-session|not found/i);
    await expect(
      a.conn.agent.request(methods.agent.session.new, { cwd: "relative/dir", mcpServers: [] }),
    ).rejects.toThrow(/not an absolute path/);
    await expect(
      a.conn.agent.request(methods.agent.session.new, { cwd: join(a.rig.root, "missing"), mcpServers: [] }),
    ).rejects.toThrow(/does not exist/);
    const s = await newSession(a);
    const first = prompt(a, s.sessionId, "one");
    await new Promise((r) => setTimeout(r, 200));
    await expect(prompt(a, s.sessionId, "two")).rejects.toThrow(/already running/);
    expect((await first).stopReason).toBe("end_turn");
  }, 30_000);

  test("a permission question never answered: the turn waits, and cancel still ends it", async () => {
    a = await startAcp({
      script: [{ tool_calls: [{ name: "bash", arguments: { command: "echo hi" } }] }, { text: "after" }],
      answer: () => new Promise(() => {}),
    });
    await initialize(a);
    const s = await newSession(a);
    const turn = prompt(a, s.sessionId, "go");
    await until(() => (a as AcpRig).permissions.length === 1);
    await a.conn.agent.notify(methods.agent.session.cancel, { sessionId: s.sessionId });
    expect((await turn).stopReason).toBe("cancelled");
  }, 30_000);

  test("no API key: session/new says so as an auth error", async () => {
    a = await startAcp({ script: [] });
    // not the rig's agent: one without a key and with a non-local base URL
    const env = { ...process.env, ...a.rig.env, OPENAI_API_KEY: "", I_API_KEY: "" };
    const replies = await rawExchange(
      [
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } }),
        JSON.stringify({
          jsonrpc: "2.0",
          id: 2,
          method: "session/new",
          params: { cwd: a.rig.workspace, mcpServers: [] },
        }),
      ],
      { ...env, I_BASE_URL: "https://api.example.invalid/v1", I_MODEL: "mock-model" },
      2,
    );
    const err = replies.find((r) => r.id === 2)?.error as { code: number; message: string };
    expect(err.code).toBe(-32000);
    expect(err.message).toContain("no API key");
  }, 30_000);
});
