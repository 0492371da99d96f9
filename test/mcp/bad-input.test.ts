// Bad input around MCP: each is one clear line naming the file or the server; a broken config file stops
// the run before anything starts (exit 2), a broken server only leaves that server out.
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { makeRig, type Rig } from "../agent/rig.ts";
import { BUN, everything, FIXTURES, mcpRig, toolResults } from "./rig.ts";

let rig: Rig | undefined;
let http: Server | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
  http?.close();
  http = undefined;
});

const CRASHY = join(FIXTURES, "crashy.ts");

async function withFile(text: string): Promise<Rig> {
  const r = await makeRig({ script: [{ text: "never" }] });
  writeFileSync(join(r.configDir, "mcp.json"), text);
  return r;
}

describe("mcp: a bad mcp.json stops the run with one line (exit 2)", () => {
  for (const [what, text, expected] of [
    ["malformed JSON", '{"mcpServers": {', /mcp\.json: malformed JSON/],
    ["an unknown top-level key", '{"servers": {}}', /mcp\.json: unknown key "servers"/],
    [
      "an unknown server key",
      '{"mcpServers": {"a": {"command": "x", "timeout": 5}}}',
      /mcp\.json: server "a": unknown key "timeout".*timeout_ms/,
    ],
    [
      "a stdio server without command",
      '{"mcpServers": {"a": {"args": []}}}',
      /server "a": field command is missing/,
    ],
    [
      "an http server without url",
      '{"mcpServers": {"a": {"type": "http"}}}',
      /server "a": field url is missing/,
    ],
    ["a bad server name", '{"mcpServers": {"a b": {"command": "x"}}}', /server "a b": a server name is/],
    [
      "auto_approve of the wrong type",
      '{"mcpServers": {"a": {"command": "x", "auto_approve": true}}}',
      /auto_approve/,
    ],
  ] as const) {
    test(what, async () => {
      rig = await withFile(text);
      const r = await rig.run(["-p", "hi"]);
      expect(r.code).toBe(2);
      const lines = r.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(join(rig.configDir, "mcp.json"));
      expect(lines[0]).toMatch(expected);
      expect(rig.mock.requests).toHaveLength(0);
    });
  }
});

describe("mcp: a bad server is one warning naming it; the session goes on", () => {
  test("an undefined variable without default", async () => {
    rig = await mcpRig(
      { tok: { command: BUN, args: [CRASHY], env: { TOKEN: `\${I_TEST_UNSET_VAR}` } }, everything },
      {
        script: [
          { tool_calls: [{ name: "mcp__everything__echo", arguments: { message: "on" } }] },
          { text: "ok" },
        ],
      },
    );
    const r = await rig.run(["-p", "go", "--approve", "all"]);
    expect(r.code).toBe(0);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`server "tok": env.TOKEN: \${I_TEST_UNSET_VAR} is not set`);
    expect(toolResults(rig)[0]).toContain("Echo: on");
  }, 60_000);

  test("a reference to one of i's credentials is refused", async () => {
    rig = await mcpRig(
      { leak: { command: BUN, args: [CRASHY], env: { K: `\${OPENAI_API_KEY}` } } },
      { script: [{ text: "ok" }] },
    );
    const r = await rig.run(["-p", "go"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`refers to \${OPENAI_API_KEY}, one of i's own credentials`);
    expect(r.stderr).not.toContain("sk-test-key");
  }, 30_000);

  test("an HTTP server that answers 401", async () => {
    http = createServer((_req, res) => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end('{"error":"unauthorized"}');
    });
    await new Promise<void>((r) => http?.listen(0, "127.0.0.1", () => r()));
    const port = (http.address() as { port: number }).port;
    rig = await mcpRig(
      {
        locked: {
          type: "http",
          url: `http://127.0.0.1:${port}/mcp`,
          headers: { Authorization: "Bearer wrong" },
        },
      },
      { script: [{ text: "ok" }] },
    );
    const r = await rig.run(["-p", "go"]);
    expect(r.code).toBe(0);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^i: mcp: server "locked" failed to start: .*401/);
    expect(lines[0]).not.toContain("Bearer wrong");
  }, 30_000);

  test("an HTTP server that refuses the connection", async () => {
    rig = await mcpRig(
      { gone: { type: "http", url: "http://127.0.0.1:9/mcp" } },
      { script: [{ text: "ok" }] },
    );
    const r = await rig.run(["-p", "go"]);
    expect(r.code).toBe(0);
    expect(r.stderr.trim()).toMatch(/^i: mcp: server "gone" failed to start: .*(ECONNREFUSED|connect)/i);
  }, 30_000);

  test("an invalid tool schema leaves that tool out, the others stay", async () => {
    rig = await mcpRig(
      { odd: { command: BUN, args: [CRASHY, "--bad-schema"] } },
      { script: [{ tool_calls: [{ name: "mcp__odd__ok", arguments: {} }] }, { text: "ok" }] },
    );
    const r = await rig.run(["-p", "go", "--approve", "all"]);
    expect(r.code).toBe(0);
    expect(r.stderr.trim()).toMatch(
      /^i: mcp: server "odd": tool "broken" has an invalid input schema .*; left out$/,
    );
    expect(toolResults(rig)[0]).toBe("ok");
  }, 30_000);

  test("a huge result is capped before it reaches the model", async () => {
    rig = await mcpRig(
      { big: { command: BUN, args: [CRASHY, "--huge"] } },
      { script: [{ tool_calls: [{ name: "mcp__big__ok", arguments: {} }] }, { text: "ok" }] },
    );
    const r = await rig.run(["-p", "go", "--approve", "all"]);
    expect(r.code).toBe(0);
    const out = toolResults(rig)[0] ?? "";
    expect(out.length).toBeLessThan(100_000);
    expect(out).toMatch(/cut|truncat|omitted|left out/i);
  }, 30_000);

  test("two servers with the same tool name: each gets its own name", async () => {
    rig = await mcpRig(
      { one: { command: BUN, args: [CRASHY] }, two: { command: BUN, args: [CRASHY] } },
      {
        script: [
          {
            tool_calls: [
              { name: "mcp__one__ok", arguments: {} },
              { name: "mcp__two__ok", arguments: {} },
            ],
          },
          { text: "ok" },
        ],
      },
    );
    const r = await rig.run(["-p", "go", "--approve", "all"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(toolResults(rig)).toEqual(["ok", "ok"]);
  }, 30_000);
});
