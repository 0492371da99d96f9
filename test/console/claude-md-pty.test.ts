// Someone switching from Claude Code keeps their instructions: a workspace with only CLAUDE.md has it in
// the system prompt of the console's first request; with AGENTS.md beside it, AGENTS.md is the one read.
import { expect, test } from "bun:test";
import type { Rig } from "../agent/rig.ts";
import { liveConsole } from "./console-pty.ts";

const live = liveConsole();

function systemPrompt(r: Rig): string {
  const body = r.mock.requests[0]?.body as { messages: Array<{ role: string; content: unknown }> };
  const sys = body.messages.find((m) => m.role === "system");
  return typeof sys?.content === "string" ? sys.content : JSON.stringify(sys?.content);
}

test("a workspace with only CLAUDE.md has it in the system prompt", async () => {
  const { rig, pty } = await live.open([{ text: "ok" }], {
    files: { "CLAUDE.md": "Always run `make check-claude-17` before saying you are done.\n" },
  });
  await pty.type("hello");
  await pty.press("Enter");
  await pty.waitFor("ok");
  expect(systemPrompt(rig)).toContain("make check-claude-17");
}, 60_000);

test("with AGENTS.md beside it, AGENTS.md is read instead", async () => {
  const { rig, pty } = await live.open([{ text: "ok" }], {
    files: { "CLAUDE.md": "claude-only-rule-31\n", "AGENTS.md": "agents-rule-42\n" },
  });
  await pty.type("hello");
  await pty.press("Enter");
  await pty.waitFor("ok");
  expect(systemPrompt(rig)).toContain("agents-rule-42");
  expect(systemPrompt(rig)).not.toContain("claude-only-rule-31");
}, 60_000);
