// The console as a person uses it with MCP servers: the approval question of an MCP tool offers "always
// for this tool" and "for this server"; /mcp lists the servers; a project's .mcp.json is refused until
// /mcp trust accepts it, after which its server's tools work in the same session.
import { expect, test } from "bun:test";
import type { Rig } from "../agent/rig.ts";
import { liveConsole, PTY_TEST_MS } from "../console/console-pty.ts";
import type { MockStep } from "../fixtures/mock-server/index.ts";
import type { Pty } from "../helpers/pty.ts";
import { everything, toolResults } from "./rig.ts";

const live = liveConsole();

async function consoleWith(
  script: MockStep[],
  servers: { user?: Record<string, unknown>; project?: Record<string, unknown> },
): Promise<Pty> {
  const { user, project } = servers;
  const pty = await live.start(script, {
    args: ["--approve", "ask"],
    cols: 120,
    rows: 40,
    ...(user ? { configFiles: { "mcp.json": JSON.stringify({ mcpServers: user }) } } : {}),
    // A project's file is asked about first: no here, so that /mcp trust can accept it later.
    ...(project
      ? {
          files: { ".mcp.json": JSON.stringify({ mcpServers: project }) },
          ready: "trust them for this workspace?",
        }
      : {}),
  });
  if (project) {
    await pty.type("n");
    await pty.waitFor("Ctrl-C cancels");
  }
  return pty;
}

test(
  "an MCP tool is asked like bash; s allows every tool of its server for the session; /mcp lists it",
  async () => {
    const p = await consoleWith(
      [
        { tool_calls: [{ name: "mcp__everything__echo", arguments: { message: "first" } }] },
        { text: "one" },
        { tool_calls: [{ name: "mcp__everything__get-sum", arguments: { a: 20, b: 22 } }] },
        { text: "two" },
      ],
      { user: { everything } },
    );
    await p.type("echo please");
    await p.press("Enter");
    await p.waitFor("? allow tool everything · echo:");
    await p.waitFor("s always every tool of everything");
    await p.waitFor('{"message":"first"}');
    // One key answers: no Enter.
    await p.type("s");
    await p.waitFor("one");
    // Another tool of the same server runs without a question now (one would hold the turn: no "two").
    await p.type("sum please");
    await p.press("Enter");
    await p.waitFor("two");
    expect(toolResults(live.rig as Rig)).toEqual(["Echo: first", expect.stringContaining("42")]);
    await p.type("/mcp");
    await p.press("Enter");
    await p.waitFor(/everything +user +connected, 13 tools +stdio: /);
  },
  PTY_TEST_MS,
);

test(
  "a long MCP call's progress notifications show in the activity line while it runs",
  async () => {
    const long = "trigger-long-running-operation";
    const p = await consoleWith(
      [
        { tool_calls: [{ name: `mcp__everything__${long}`, arguments: { duration: 6, steps: 3 } }] },
        { text: "long done" },
      ],
      { user: { everything: { ...everything, auto_approve: [long] } } },
    );
    await p.type("run the long one");
    await p.press("Enter");
    // The live tail under the tool's activity line, before the call has ended.
    await p.waitFor(/progress [12]\/3/, { timeoutMs: 20_000 });
    await p.waitFor("long done", { timeoutMs: 20_000 });
    expect(toolResults(live.rig as Rig)[0]).toContain("completed");
  },
  PTY_TEST_MS,
);

test(
  "a project's .mcp.json declined at start: its tools are unknown until /mcp trust starts them",
  async () => {
    const p = await consoleWith(
      [
        { tool_calls: [{ name: "mcp__proj__echo", arguments: { message: "before" } }] },
        { text: "first done" },
        { tool_calls: [{ name: "mcp__proj__echo", arguments: { message: "after" } }] },
        { text: "second done" },
      ],
      { project: { proj: { ...everything, auto_approve: ["echo"] } } },
    );
    await p.type("try it");
    await p.press("Enter");
    await p.waitFor("first done");
    expect(toolResults(live.rig as Rig)[0]).toContain('unknown tool "mcp__proj__echo"');
    await p.type("/mcp");
    await p.press("Enter");
    await p.waitFor(/proj +project +not accepted: \/mcp trust/);
    await p.type("/mcp trust");
    await p.press("Enter");
    await p.waitFor("accepted for this workspace");
    await p.type("again");
    await p.press("Enter");
    await p.waitFor("second done");
    expect(toolResults(live.rig as Rig).at(-1)).toBe("Echo: after");
  },
  PTY_TEST_MS,
);

test(
  "an MCP prompt is a slash command: listed in /help, its text sent as the message",
  async () => {
    const p = await consoleWith([{ text: "it is sunny" }], { user: { everything } });
    // The servers start in the background; /mcp says when this one is up (a snapshot each time).
    for (let i = 0; ; i++) {
      await p.type("/mcp");
      await p.press("Enter");
      const up = await p.waitFor(/everything +user +(connected|starting)/g, { timeoutMs: 5_000 });
      if ((up.match(/everything +user +connected/g)?.length ?? 0) > 0) break;
      if (i > 40) throw new Error("the everything server did not start");
      await new Promise((r) => setTimeout(r, 250));
    }
    await p.type("/help");
    await p.press("Enter");
    await p.waitFor(
      /\/mcp__everything__args-prompt CITY \[state\]\s+MCP prompt: A prompt with two arguments/,
    );
    await p.type("/mcp__everything__args-prompt Boston MA");
    await p.press("Enter");
    await p.waitFor("it is sunny");
    const sent = JSON.stringify(live.rig?.mock.requests.at(-1)?.body);
    expect(sent).toContain("What's weather in Boston, MA?");
    await p.type("/mcp__everything__args-prompt");
    await p.press("Enter");
    await p.waitFor("/mcp__everything__args-prompt needs city");
  },
  PTY_TEST_MS,
);
