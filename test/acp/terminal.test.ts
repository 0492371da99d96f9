// A client that offers terminal/*: bash runs in the editor's terminal (the tool call shows it), the
// model gets its output and exit code, i's credentials are unset there, and a cancel kills it. With the
// sandbox on (the default where bubblewrap runs) bash runs confined in i instead, terminals or not.
import { afterEach, describe, expect, test } from "bun:test";
import { methods } from "@agentclientprotocol/sdk";
import { sandboxAvailability } from "../../src/tools/sandbox.ts";
import {
  type AcpRig,
  initialize,
  newSession,
  prompt,
  startAcp,
  type TerminalLog,
  until,
  updatesOf,
} from "./harness.ts";

let a: AcpRig | undefined;
afterEach(async () => {
  await a?.close();
  a = undefined;
});

describe("i acp: bash in the editor's terminal", () => {
  test("runs there; output and exit code reach the model; cancel kills it", async () => {
    const log: TerminalLog = { created: [], killed: 0 };
    a = await startAcp({
      script: [
        { tool_calls: [{ name: "bash", arguments: { command: "echo in-the-editor; exit 3" } }] },
        { text: "saw it" },
        { tool_calls: [{ name: "bash", arguments: { command: "sleep 30" } }] },
        { text: "never" },
      ],
      args: ["--approve", "all", "--sandbox", "off"],
      terminals: log,
    });
    await initialize(a, { terminal: true });
    const s = await newSession(a);
    expect((await prompt(a, s.sessionId, "run")).stopReason).toBe("end_turn");
    expect(log.created).toHaveLength(1);
    expect(log.created[0]?.args.at(-1)).toBe("echo in-the-editor; exit 3");
    expect(log.created[0]?.env.OPENAI_API_KEY).toBe("");
    const sent = JSON.stringify(a.rig.mock.requests[1]?.body);
    expect(sent).toContain("in-the-editor");
    expect(sent).toContain("exit code 3");
    const done = updatesOf(a, "tool_call_update").find((u) => u.status === "failed");
    expect(done?.content).toEqual([{ type: "terminal", terminalId: "term-1" }]);
    const turn = prompt(a, s.sessionId, "sleep");
    await until(() => log.created.length === 2);
    await a.conn.agent.notify(methods.agent.session.cancel, { sessionId: s.sessionId });
    expect((await turn).stopReason).toBe("cancelled");
    expect(log.killed).toBeGreaterThanOrEqual(1);
  }, 30_000);

  test.skipIf("problem" in sandboxAvailability())(
    "by default bash runs in i's sandbox, not the editor's terminal: the root is read-only to it",
    async () => {
      const log: TerminalLog = { created: [], killed: 0 };
      a = await startAcp({
        script: [
          {
            tool_calls: [
              {
                name: "bash",
                arguments: { command: "test -w / && echo root-writable || echo root-read-only" },
              },
            ],
          },
          { text: "done" },
        ],
        args: ["--approve", "all"],
        terminals: log,
      });
      await initialize(a, { terminal: true });
      const s = await newSession(a);
      expect((await prompt(a, s.sessionId, "run")).stopReason).toBe("end_turn");
      expect(log.created).toHaveLength(0);
      expect(JSON.stringify(a.rig.mock.requests[1]?.body)).toContain("root-read-only");
    },
    30_000,
  );
});
