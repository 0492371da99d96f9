import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type AcpRig,
  agentText,
  initialize,
  newSession,
  prompt,
  startAcp,
  until,
  updatesOf,
} from "./harness.ts";

let a: AcpRig | undefined;
afterEach(async () => {
  await a?.close();
  a = undefined;
});

describe("i acp: a prompt turn", () => {
  test("initialize is truthful; text streams; the session is an ordinary saved session", async () => {
    a = await startAcp({ script: [{ text: "Hello from the mock.", reasoning: "thinking it over" }] });
    const init = await initialize(a);
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities?.loadSession).toBe(true);
    expect(init.agentCapabilities?.promptCapabilities).toMatchObject({ audio: false, embeddedContext: true });
    expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true });
    expect(init.authMethods?.map((m) => m.id)).toEqual(["api-key", "i-auth"]);
    const s = await newSession(a);
    expect(s.modes?.currentModeId).toBe("ask");
    expect(s.modes?.availableModes.map((m) => m.id)).toEqual(["ask", "edits", "all", "none"]);
    const r = await prompt(a, s.sessionId, "hi");
    expect(r.stopReason).toBe("end_turn");
    await until(() => agentText(a as AcpRig) === "Hello from the mock.");
    expect(
      updatesOf(a, "agent_thought_chunk")
        .map((u) => (u.content.type === "text" ? u.content.text : ""))
        .join(""),
    ).toContain("thinking it over");
    const meta = JSON.parse(readFileSync(join(a.rig.dataDir, s.sessionId, "meta.json"), "utf8"));
    expect(meta.workspace).toBeTruthy();
  }, 30_000);

  test("a tool that writes a file shows as an edit with a diff; bash as execute with its output", async () => {
    a = await startAcp({
      script: [
        { tool_calls: [{ name: "write", arguments: { path: "a.txt", content: "one\ntwo\n" } }] },
        { tool_calls: [{ name: "bash", arguments: { command: "echo out-$((1+1))" } }] },
        { text: "done" },
      ],
      files: { "a.txt": "one\n" },
      args: ["--approve", "all"],
    });
    await initialize(a);
    const s = await newSession(a);
    expect(s.modes?.currentModeId).toBe("all");
    const r = await prompt(a, s.sessionId, "go");
    expect(r.stopReason).toBe("end_turn");
    const calls = updatesOf(a, "tool_call");
    expect(calls.map((c) => [c.kind, c.title])).toEqual([
      ["edit", "Write a.txt"],
      ["execute", "Run echo out-$((1+1))"],
    ]);
    expect(calls[0]?.locations?.[0]?.path).toBe(join(a.rig.workspace, "a.txt"));
    const done = updatesOf(a, "tool_call_update").filter((u) => u.status === "completed");
    expect(done).toHaveLength(2);
    expect(done[0]?.content?.[0]).toEqual({
      type: "diff",
      path: join(a.rig.workspace, "a.txt"),
      oldText: "one\n",
      newText: "one\ntwo\n",
    });
    const out = done[1]?.content?.[0];
    expect(out?.type === "content" && out.content.type === "text" ? out.content.text : "").toContain("out-2");
  }, 30_000);
});
