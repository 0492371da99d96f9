// Someone switching from Claude Code keeps their instructions: a workspace with only CLAUDE.md has it in
// the system prompt of the console's first request; with AGENTS.md beside it, AGENTS.md is the one read.
import { afterEach, expect, test } from "bun:test";
import type { Rig } from "../agent/rig.ts";
import type { Pty } from "../helpers/pty.ts";
import { startConsole } from "./console-pty.ts";

let rig: Rig | undefined;
let pty: Pty | undefined;
afterEach(async () => {
  await pty?.close();
  await rig?.close();
  pty = undefined;
  rig = undefined;
});

function systemPrompt(r: Rig): string {
  const body = r.mock.requests[0]?.body as { messages: Array<{ role: string; content: unknown }> };
  const sys = body.messages.find((m) => m.role === "system");
  return typeof sys?.content === "string" ? sys.content : JSON.stringify(sys?.content);
}

test("a workspace with only CLAUDE.md has it in the system prompt", async () => {
  ({ rig, pty } = await startConsole([{ text: "ok" }], {
    files: { "CLAUDE.md": "Always run `make check-claude-17` before saying you are done.\n" },
  }));
  await pty.type("hello");
  await pty.press("Enter");
  await pty.waitFor("ok");
  expect(systemPrompt(rig)).toContain("make check-claude-17");
}, 60_000);

test("with AGENTS.md beside it, AGENTS.md is read instead", async () => {
  ({ rig, pty } = await startConsole([{ text: "ok" }], {
    files: { "CLAUDE.md": "claude-only-rule-31\n", "AGENTS.md": "agents-rule-42\n" },
  }));
  await pty.type("hello");
  await pty.press("Enter");
  await pty.waitFor("ok");
  expect(systemPrompt(rig)).toContain("agents-rule-42");
  expect(systemPrompt(rig)).not.toContain("claude-only-rule-31");
}, 60_000);
