// Against the reference server "everything" (npm, run offline): its tools are declared as mcp__… tools,
// called through the agent with the mock model, results mapped; --approve none refuses; a long operation
// outlives the 15 s hook deadline; no credential reaches the server.
import { afterEach, describe, expect, test } from "bun:test";
import type { Rig } from "../agent/rig.ts";
import { events } from "../agent/rig.ts";
import { everything, mcpRig, toolResults } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function declaredTools(r: Rig): string[] {
  const first = r.mock.requests[0]?.body as { tools?: { function?: { name: string } }[] } | undefined;
  return (first?.tools ?? []).map((t) => t.function?.name ?? "");
}

describe("mcp: the everything server", () => {
  test("echo and a sum through the model; tools declared as mcp__everything__*", async () => {
    rig = await mcpRig(
      { everything },
      {
        script: [
          {
            tool_calls: [
              { name: "mcp__everything__echo", arguments: { message: "hello mcp" } },
              { name: "mcp__everything__get-sum", arguments: { a: 2, b: 40 } },
            ],
          },
          { text: "done" },
        ],
      },
    );
    const r = await rig.run(["-p", "go", "--json", "--approve", "all"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(declaredTools(rig)).toContain("mcp__everything__echo");
    expect(declaredTools(rig)).toContain("bash");
    const results = toolResults(rig);
    expect(results[0]).toContain("Echo: hello mcp");
    expect(results[1]).toContain("42");
    const evs = events(r.stdout);
    expect(evs.filter((e) => e.type === "tool_result").every((e) => e.is_error === false)).toBe(true);
  }, 60_000);

  test("--approve none refuses an MCP tool, with the refusal as its result", async () => {
    rig = await mcpRig(
      { everything: { ...everything, auto_approve: "*" } },
      {
        script: [
          { tool_calls: [{ name: "mcp__everything__echo", arguments: { message: "x" } }] },
          { text: "ok" },
        ],
      },
    );
    const r = await rig.run(["-p", "go", "--approve", "none"]);
    expect(r.code).toBe(0);
    expect(toolResults(rig)[0]).toContain("refused: the session is read-only");
    expect(r.stderr).toContain("refused mcp__everything__echo");
  }, 60_000);

  test("print mode's default (ask, no terminal) refuses unless auto_approve lists the tool", async () => {
    rig = await mcpRig(
      { everything: { ...everything, auto_approve: ["echo"] } },
      {
        script: [
          {
            tool_calls: [
              { name: "mcp__everything__echo", arguments: { message: "auto" } },
              { name: "mcp__everything__get-sum", arguments: { a: 1, b: 1 } },
            ],
          },
          { text: "ok" },
        ],
      },
    );
    const r = await rig.run(["-p", "go", "--approve", "ask"]);
    expect(r.code).toBe(0);
    const [echo, sum] = toolResults(rig);
    expect(echo).toContain("Echo: auto");
    expect(sum).toContain("needs the user's approval");
  }, 60_000);

  test("arguments are checked against the server's input schema before the call", async () => {
    rig = await mcpRig(
      { everything },
      {
        script: [
          { tool_calls: [{ name: "mcp__everything__get-sum", arguments: { a: "two" } }] },
          { text: "ok" },
        ],
      },
    );
    const r = await rig.run(["-p", "go", "--approve", "all"]);
    expect(r.code).toBe(0);
    expect(toolResults(rig)[0]).toMatch(/^invalid arguments for mcp__everything__get-sum: /);
  }, 60_000);

  test("images come back as image parts; structured content and resource links as text", async () => {
    rig = await mcpRig(
      { everything },
      {
        script: [
          {
            tool_calls: [
              { name: "mcp__everything__get-tiny-image", arguments: {} },
              { name: "mcp__everything__get-structured-content", arguments: { location: "New York" } },
              { name: "mcp__everything__get-resource-links", arguments: { count: 2 } },
            ],
          },
          { text: "ok" },
        ],
      },
    );
    const r = await rig.run(["-p", "go", "--approve", "all"]);
    expect(r.code).toBe(0);
    const [, structured, links] = toolResults(rig);
    expect(JSON.stringify(rig.mock.requests.at(-1)?.body)).toContain('"type":"image_url"');
    expect(structured).toContain("temperature");
    expect(links).toContain("[resource link]");
  }, 60_000);

  test("a model configured to take no images gets a note in the image's place", async () => {
    rig = await mcpRig(
      { everything },
      {
        script: [
          { tool_calls: [{ name: "mcp__everything__get-tiny-image", arguments: {} }] },
          { text: "ok" },
        ],
        config: { models: { "mock-model": { context_window: 100_000, images: "omit" } } },
      },
    );
    const r = await rig.run(["-p", "go", "--approve", "all"]);
    expect(r.code).toBe(0);
    const out = toolResults(rig)[0] ?? "";
    expect(out).toContain("left out: this model takes no images");
    expect(JSON.stringify(rig.mock.requests.at(-1)?.body)).not.toContain("image_url");
  }, 60_000);

  test("no credential of i reaches the server's environment", async () => {
    rig = await mcpRig(
      { everything: { ...everything, env: { MY_SETTING: `\${MY_SETTING:-fallback}` } } },
      {
        script: [{ tool_calls: [{ name: "mcp__everything__get-env", arguments: {} }] }, { text: "ok" }],
      },
    );
    const r = await rig.run(["-p", "go", "--approve", "all"], {
      I_API_KEY: "sk-i-secret-1111111111",
      ANTHROPIC_API_KEY: "sk-ant-secret-2222222222",
      SOME_OTHER_SECRET: "zzz-unlisted",
    });
    expect(r.code).toBe(0);
    const env = toolResults(rig)[0] ?? "";
    expect(env).toContain("MY_SETTING");
    expect(env).toContain("fallback");
    expect(env).not.toContain("sk-test-key-not-real");
    expect(env).not.toContain("sk-i-secret");
    expect(env).not.toContain("sk-ant-secret");
    expect(env).not.toContain("zzz-unlisted");
  }, 60_000);
});
