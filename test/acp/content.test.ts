// What a client sends besides text: an image, an embedded resource, a link to a file; and the MCP server a
// client offers in session/new (the reference server-everything), started as trusted and called.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { makePng } from "../fixtures/images/png.ts";
import { EVERYTHING } from "../mcp/rig.ts";
import { type AcpRig, initialize, newSession, prompt, startAcp, updatesOf } from "./harness.ts";

let a: AcpRig | undefined;
afterEach(async () => {
  await a?.close();
  a = undefined;
});

const bodyOf = (r: AcpRig, i: number) => JSON.stringify(r.rig.mock.requests[i]?.body);

describe("i acp: prompt content", () => {
  test("an image reaches the model as an image; resources are attached like @file", async () => {
    a = await startAcp({
      script: [{ text: "a grey square" }, { text: "read them" }],
      model: "gpt-4o",
      config: { models: { "gpt-4o": { context_window: 100_000, max_output_tokens: 4096, images: "keep" } } },
      files: { "notes.md": "linked file text\n" },
    });
    const init = await initialize(a);
    expect(init.agentCapabilities?.promptCapabilities?.image).toBe(true);
    const s = await newSession(a);
    const png = makePng(4, 4).toString("base64");
    const r = await prompt(a, s.sessionId, [
      { type: "text", text: "what is this?" },
      { type: "image", mimeType: "image/png", data: png },
    ]);
    expect(r.stopReason).toBe("end_turn");
    expect(bodyOf(a, 0)).toContain(png);
    await prompt(a, s.sessionId, [
      { type: "text", text: "compare these" },
      {
        type: "resource",
        resource: { uri: pathToFileURL(join(a.rig.workspace, "buf.ts")).href, text: "unsaved buffer text" },
      },
      { type: "resource_link", name: "notes.md", uri: pathToFileURL(join(a.rig.workspace, "notes.md")).href },
    ]);
    const sent = bodyOf(a, 1);
    expect(sent).toContain('<file path=\\"buf.ts\\">\\nunsaved buffer text');
    expect(sent).toContain('<file path=\\"notes.md\\">\\nlinked file text');
  }, 30_000);

  test("a model without images: initialize says so and an image prompt is refused with one line", async () => {
    a = await startAcp({ script: [{ text: "never" }] });
    const init = await initialize(a);
    expect(init.agentCapabilities?.promptCapabilities?.image).toBe(false);
    const s = await newSession(a);
    await expect(
      prompt(a, s.sessionId, [
        { type: "image", mimeType: "image/png", data: makePng(2, 2).toString("base64") },
      ]),
    ).rejects.toThrow(/takes no images/);
    expect(a.rig.mock.requests).toHaveLength(0);
  }, 30_000);
});

describe("i acp: the client's MCP servers", () => {
  test("server-everything offered in session/new is started and its tool called", async () => {
    a = await startAcp({
      script: [
        { tool_calls: [{ name: "mcp__everything__echo", arguments: { message: "from the editor" } }] },
        { text: "echoed" },
      ],
    });
    await initialize(a);
    const s = await newSession(a, [
      { name: "everything", command: process.execPath, args: [EVERYTHING, "stdio"], env: [] },
    ]);
    const r = await prompt(a, s.sessionId, "echo it");
    expect(r.stopReason).toBe("end_turn");
    const body = a.rig.mock.requests[0]?.body as { tools?: { function: { name: string } }[] } | undefined;
    const tools = body?.tools ?? [];
    expect(tools.map((t) => t.function.name)).toContain("mcp__everything__echo");
    const done = updatesOf(a, "tool_call_update").find((u) => u.status === "completed");
    expect(JSON.stringify(done?.content)).toContain("from the editor");
    expect(a.permissions).toHaveLength(1);
  }, 60_000);
});
