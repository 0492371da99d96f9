// The reference memory and filesystem servers, a long operation past the hook deadline, streamable HTTP on
// loopback, and the lifecycle: a crash is a tool error and the server restarts on the next call; three
// in a row leave it off; a server that never starts is one warning naming it while the session goes on.
import { afterEach, describe, expect, test } from "bun:test";
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { events, type Rig } from "../agent/rig.ts";
import { BUN, EVERYTHING, everything, FILESYSTEM, FIXTURES, MEMORY, mcpRig, toolResults } from "./rig.ts";

let rig: Rig | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
  child?.kill("SIGKILL");
  child = undefined;
});

const CRASHY = join(FIXTURES, "crashy.ts");

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe("mcp: reference servers", () => {
  test("the memory server keeps its state across calls of a session", async () => {
    rig = await mcpRig(
      { memory: { command: BUN, args: [MEMORY], env: { MEMORY_FILE_PATH: `\${MEM_FILE}` } } },
      {
        script: [
          {
            tool_calls: [
              {
                name: "mcp__memory__create_entities",
                arguments: {
                  entities: [{ name: "Ada", entityType: "person", observations: ["wrote notes"] }],
                },
              },
            ],
          },
          { tool_calls: [{ name: "mcp__memory__read_graph", arguments: {} }] },
          { text: "ok" },
        ],
      },
    );
    const memFile = join(rig.root, "memory.jsonl");
    const r = await rig.run(["-p", "go", "--approve", "all"], { MEM_FILE: memFile });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const results = toolResults(rig);
    expect(results[1]).toContain("Ada");
    expect(results[1]).toContain("wrote notes");
    expect(readFileSync(memFile, "utf8")).toContain("Ada");
  }, 60_000);

  test("the filesystem server reads a workspace file", async () => {
    rig = await mcpRig(
      { fs: { command: BUN, args: [FILESYSTEM, "."] } },
      {
        files: { "notes/hello.txt": "a line only the file has\n" },
        script: [
          { tool_calls: [{ name: "mcp__fs__read_text_file", arguments: { path: "notes/hello.txt" } }] },
          { text: "ok" },
        ],
      },
    );
    const r = await rig.run(["-p", "go", "--approve", "all"]);
    expect(r.code).toBe(0);
    expect(toolResults(rig)[0]).toContain("a line only the file has");
  }, 60_000);

  test("a 20 s operation completes: MCP calls have their own deadline, not the 15 s hook deadline", async () => {
    rig = await mcpRig(
      { everything },
      {
        script: [
          {
            tool_calls: [
              {
                name: "mcp__everything__trigger-long-running-operation",
                arguments: { duration: 20, steps: 4 },
              },
            ],
          },
          { text: "ok" },
        ],
      },
    );
    const started = Date.now();
    const r = await rig.run(["-p", "go", "--approve", "all", "--json"]);
    expect(r.code).toBe(0);
    expect(Date.now() - started).toBeGreaterThan(19_000);
    const out = toolResults(rig)[0] ?? "";
    expect(out).toContain("completed");
    expect(out).not.toMatch(/failed|timeout|no reply/i);
    // The server's progress notifications are shown while it runs (the console's activity line).
    const progress = events(r.stdout)
      .filter((e) => e.type === "tool_output")
      .map((e) => String(e.text));
    expect(progress.some((t) => /^progress [1-3]\/4/.test(t))).toBe(true);
  }, 90_000);

  test("a call past the server's timeout_ms is a tool error naming it; the session goes on", async () => {
    rig = await mcpRig(
      { slow: { command: BUN, args: [CRASHY, "--slow-call"], timeout_ms: 500 } },
      {
        script: [
          { tool_calls: [{ name: "mcp__slow__ok", arguments: {} }] },
          { tool_calls: [{ name: "mcp__slow__starts", arguments: {} }] },
          { text: "ok" },
        ],
      },
    );
    const r = await rig.run(["-p", "go", "--approve", "all"]);
    expect(r.code).toBe(0);
    const [first, second] = toolResults(rig);
    expect(first).toContain("within 500 ms");
    expect(second).toContain("started 0 times");
  }, 60_000);

  test("streamable HTTP on loopback", async () => {
    const port = await freePort();
    child = spawn(BUN, [EVERYTHING, "streamableHttp"], {
      env: { ...process.env, PORT: String(port) },
      stdio: ["ignore", "ignore", "pipe"],
    });
    await new Promise<void>((resolve) =>
      child?.stderr?.on("data", (c) => String(c).includes("listening") && resolve()),
    );
    rig = await mcpRig(
      { web: { type: "http", url: `http://127.0.0.1:\${EVERYTHING_PORT}/mcp` } },
      {
        script: [
          { tool_calls: [{ name: "mcp__web__echo", arguments: { message: "over http" } }] },
          { text: "ok" },
        ],
      },
    );
    const r = await rig.run(["-p", "go", "--approve", "all"], { EVERYTHING_PORT: String(port) });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(toolResults(rig)[0]).toContain("Echo: over http");
  }, 60_000);
});

describe("mcp: lifecycle", () => {
  test("tools/list_changed: a tool the server adds is declared before the next model request", async () => {
    rig = await mcpRig(
      { crashy: { command: BUN, args: [CRASHY] } },
      {
        script: [
          { tool_calls: [{ name: "mcp__crashy__grow", arguments: {} }] },
          { tool_calls: [{ name: "mcp__crashy__grown", arguments: {} }] },
          { text: "ok" },
        ],
      },
    );
    const r = await rig.run(["-p", "go", "--approve", "all"]);
    expect(r.code).toBe(0);
    const offered = (i: number) =>
      (
        (rig?.mock.requests[i]?.body as { tools?: { function: { name: string } }[] } | undefined)?.tools ?? []
      ).map((t) => t.function.name);
    expect(offered(0)).not.toContain("mcp__crashy__grown");
    expect(offered(1)).toContain("mcp__crashy__grown");
    expect(toolResults(rig)).toEqual(["grew", "grown answers"]);
  }, 60_000);

  test("a crash is a tool error, the server restarts on the next call, three in a row leave it off", async () => {
    const crash = { name: "mcp__crashy__crash", arguments: {} };
    rig = await mcpRig(
      { crashy: { command: BUN, args: [CRASHY], env: { CRASHY_COUNTER: `\${COUNTER}` } } },
      {
        script: [
          { tool_calls: [crash] },
          { tool_calls: [{ name: "mcp__crashy__starts", arguments: {} }] },
          { tool_calls: [crash] },
          { tool_calls: [crash] },
          { tool_calls: [crash] },
          { tool_calls: [{ name: "mcp__crashy__ok", arguments: {} }] },
          { text: "ok" },
        ],
      },
    );
    const counter = join(rig.root, "starts.txt");
    const r = await rig.run(["-p", "go", "--approve", "all"], { COUNTER: counter });
    expect(r.code).toBe(0);
    const results = toolResults(rig);
    expect(results[0]).toContain('MCP server "crashy" crashed during the call');
    expect(results[0]).toContain("restarts on the next call");
    expect(results[1]).toContain("started 2 times");
    // The starts call succeeded, so the count of crashes in a row begins again: crash, crash, crash.
    expect(results[4]).toContain("stays off for this session");
    const warned = r.stderr.split("\n").filter((l) => l.includes("crashed 3 times in a row"));
    expect(warned).toHaveLength(1);
    // Once off, the tools are withdrawn: the model's call is answered as an unknown tool.
    expect(results[5]).toMatch(/unknown tool|not available/);
  }, 90_000);

  // Generous start limits where the failure is not a timeout: a loaded machine starts bun slowly.
  for (const [what, args, startup, expected] of [
    [
      "exits at start",
      ["--exit"],
      15_000,
      /failed to start: it exited during the handshake; its stderr is in logs\/mcp-broken\.log/,
    ],
    [
      "speaks garbage",
      ["--garbage"],
      3_000,
      /failed to start: no answer to initialize within 3000 ms \(JSON Parse error/,
    ],
    ["hangs at initialize", ["--hang"], 700, /failed to start: no answer to initialize within 700 ms/],
  ] as const) {
    test(`a server that ${what}: one warning naming it, the session goes on`, async () => {
      rig = await mcpRig(
        {
          broken: { command: BUN, args: [CRASHY, ...args], startup_timeout_ms: startup },
          everything,
        },
        {
          script: [
            { tool_calls: [{ name: "mcp__everything__echo", arguments: { message: "still here" } }] },
            { text: "ok" },
          ],
        },
      );
      const r = await rig.run(["-p", "go", "--approve", "all"]);
      expect(r.code).toBe(0);
      const lines = r.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^i: mcp: server "broken" failed to start: /);
      expect(lines[0]).toMatch(expected);
      expect(toolResults(rig)[0]).toContain("Echo: still here");
    }, 60_000);
  }

  test("a command that does not exist: one warning naming the server", async () => {
    rig = await mcpRig({ ghost: { command: "no-such-program-i-test" } }, { script: [{ text: "ok" }] });
    const r = await rig.run(["-p", "go"]);
    expect(r.code).toBe(0);
    expect(r.stderr.trim()).toMatch(/^i: mcp: server "ghost" failed to start: .*ENOENT|not found/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  }, 30_000);
});
