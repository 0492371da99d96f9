// The console's trust question, as a person meets it, shows what a project's MCP server would be started
// with beyond its command: each env key and header name with the variables it expands, never a value,
// and a mark on the variables that change what a program loads.
import { expect, test } from "bun:test";
import { flat } from "../helpers/pty.ts";
import { liveConsole } from "./console-pty.ts";

const live = liveConsole();
const TOKEN_REF = ["$", "{GITHUB_TOKEN}"].join("");

test("the question lists env keys and header names with their variables; values stay hidden", async () => {
  const mcp = {
    mcpServers: {
      local: { command: "node", args: ["server.js"], env: { NODE_OPTIONS: "--require ./evil.js" } },
      remote: {
        type: "http",
        url: "https://example.test/mcp",
        headers: { Authorization: `Bearer ${TOKEN_REF}` },
      },
    },
  };
  const { pty } = await live.open([{ text: "never" }], {
    files: { ".mcp.json": JSON.stringify(mcp) },
    cols: 120,
    rows: 40,
    ready: "trust them for this workspace?",
  });
  const asked = flat(await pty.waitFor("trust them for this workspace?"));
  expect(asked).toContain("env NODE_OPTIONS (set in the file; changes what the program loads)");
  expect(asked).toContain(`header Authorization from ${TOKEN_REF}`);
  expect(asked).not.toContain("evil.js");
  expect(asked).not.toContain("Bearer");
  await pty.type("n");
  await pty.waitFor("Ctrl-C cancels");
}, 60_000);
