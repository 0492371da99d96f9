// /init as a person uses it: the model is asked to study the workspace and write AGENTS.md; the write is
// shown as a diff and asked like any write; after yes the file is there, after no it is not.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Rig } from "../agent/rig.ts";
import { liveConsole } from "./console-pty.ts";

const live = liveConsole();

const AGENTS = "# AGENTS.md\n\nRun the tests with `make test`.\n";
const script = [
  { tool_calls: [{ name: "write", arguments: { path: "AGENTS.md", content: AGENTS } }] },
  { text: "Wrote AGENTS.md: how to run the tests." },
];

/** The text of the first user message the model received. */
function firstUserText(r: Rig): string {
  const body = r.mock.requests[0]?.body as { messages: Array<{ role: string; content: unknown }> };
  const user = body.messages.find((m) => m.role === "user");
  return typeof user?.content === "string" ? user.content : JSON.stringify(user?.content);
}

test("/init: the model is asked for AGENTS.md; the write is shown as a diff, approved, then written", async () => {
  const { rig, pty } = await live.open(script, {
    args: ["--approve", "ask"],
    files: { Makefile: "test:\n\ttrue\n" },
  });
  await pty.type("/init mention the Makefile");
  await pty.press("Enter");
  await pty.waitFor("? allow write");
  await pty.waitFor("Run the tests with `make test`.");
  expect(existsSync(join(rig.workspace, "AGENTS.md"))).toBe(false);
  await pty.type("y");
  await pty.press("Enter");
  await pty.waitFor("Wrote AGENTS.md: how to run the tests.");
  expect(readFileSync(join(rig.workspace, "AGENTS.md"), "utf8")).toBe(AGENTS);
  const asked = firstUserText(rig);
  expect(asked).toContain("Study this workspace and write AGENTS.md");
  expect(asked).toContain("Also, from the user: mention the Makefile");
}, 60_000);

test("/init answered no: no AGENTS.md", async () => {
  const { rig, pty } = await live.open([script[0] as (typeof script)[0], { text: "Not written." }], {
    args: ["--approve", "ask"],
  });
  await pty.type("/init");
  await pty.press("Enter");
  await pty.waitFor("? allow write");
  await pty.type("n");
  await pty.press("Enter");
  await pty.waitFor("Not written.");
  expect(existsSync(join(rig.workspace, "AGENTS.md"))).toBe(false);
}, 60_000);
