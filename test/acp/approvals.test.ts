// Approvals through session/request_permission, and session modes = approval modes.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { type AcpRig, initialize, newSession, prompt, startAcp, updatesOf } from "./harness.ts";

let a: AcpRig | undefined;
afterEach(async () => {
  await a?.close();
  a = undefined;
});

const writeCall = { tool_calls: [{ name: "write", arguments: { path: "new.txt", content: "hello\n" } }] };

describe("i acp: permissions", () => {
  test("allowed: the question names the call, offers the console's choices, shows the diff; the file is written", async () => {
    a = await startAcp({ script: [writeCall, { text: "written" }] });
    await initialize(a);
    const s = await newSession(a);
    const r = await prompt(a, s.sessionId, "write it");
    expect(r.stopReason).toBe("end_turn");
    expect(a.permissions).toHaveLength(1);
    const q = a.permissions[0];
    expect(q?.options.map((o) => [o.optionId, o.kind])).toEqual([
      ["allow", "allow_once"],
      ["always", "allow_always"],
      ["reject", "reject_once"],
    ]);
    const call = updatesOf(a, "tool_call")[0];
    expect(q?.toolCall.toolCallId).toBe(call?.toolCallId as string);
    expect(q?.toolCall.content?.[0]).toEqual({
      type: "diff",
      path: join(a.rig.workspace, "new.txt"),
      oldText: null,
      newText: "hello\n",
    });
    expect(readFileSync(join(a.rig.workspace, "new.txt"), "utf8")).toBe("hello\n");
  }, 30_000);

  test("rejected: nothing is written, the call fails, the model is told", async () => {
    a = await startAcp({
      script: [writeCall, { text: "ok, not written" }],
      answer: () => ({ outcome: { outcome: "selected", optionId: "reject" } }),
    });
    await initialize(a);
    const s = await newSession(a);
    const r = await prompt(a, s.sessionId, "write it");
    expect(r.stopReason).toBe("end_turn");
    expect(existsSync(join(a.rig.workspace, "new.txt"))).toBe(false);
    expect(updatesOf(a, "tool_call_update").at(-1)?.status).toBe("failed");
    const toolMsg = JSON.stringify(a.rig.mock.requests[1]?.body);
    expect(toolMsg).toContain("rejected");
  }, 30_000);

  test("always: asked once for the session; modes change what is asked", async () => {
    a = await startAcp({
      script: [
        { tool_calls: [{ name: "bash", arguments: { command: "git status" } }] },
        { tool_calls: [{ name: "bash", arguments: { command: "git status --short" } }] },
        { text: "one" },
        { tool_calls: [{ name: "write", arguments: { path: "b.txt", content: "b\n" } }] },
        { text: "two" },
        { tool_calls: [{ name: "write", arguments: { path: "c.txt", content: "c\n" } }] },
        { text: "three" },
      ],
      answer: () => ({ outcome: { outcome: "selected", optionId: "always" } }),
    });
    await initialize(a);
    const s = await newSession(a);
    await prompt(a, s.sessionId, "status twice");
    expect(a.permissions).toHaveLength(1);
    expect(a.permissions[0]?.options.find((o) => o.optionId === "always")?.name).toContain("git status");
    // accept edits: a write runs without a question
    await a.conn.agent.request(methods.agent.session.setMode, { sessionId: s.sessionId, modeId: "edits" });
    expect(updatesOf(a, "current_mode_update").at(-1)?.currentModeId).toBe("edits");
    await prompt(a, s.sessionId, "write b");
    expect(a.permissions).toHaveLength(1);
    expect(existsSync(join(a.rig.workspace, "b.txt"))).toBe(true);
    // read-only, through the config option: refused without a question
    const opts = await a.conn.agent.request(methods.agent.session.setConfigOption, {
      sessionId: s.sessionId,
      configId: "mode",
      value: "none",
    });
    expect(opts.configOptions.find((o) => o.id === "mode")?.currentValue).toBe("none");
    await prompt(a, s.sessionId, "write c");
    expect(a.permissions).toHaveLength(1);
    expect(existsSync(join(a.rig.workspace, "c.txt"))).toBe(false);
    await expect(
      a.conn.agent.request(methods.agent.session.setMode, { sessionId: s.sessionId, modeId: "yolo" }),
    ).rejects.toThrow(/no mode "yolo"/);
  }, 30_000);
});
