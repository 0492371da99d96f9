// The Harbor adapter (integrations/harbor) under python3's standard library: its unit tests, and its
// end-to-end cases, which run the real `i` (this checkout's CLI, through a wrapper on PATH) with the
// adapter's own commands against the mock model, then fill a context from what that run wrote.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MockServer, startMockServer } from "../fixtures/mock-server/index.ts";
import { MAIN, ROOT, removeDir, startProgram, tempDir } from "../helpers/cli.ts";

let root = "";
let ok: MockServer;
let refused: MockServer;

beforeAll(async () => {
  root = tempDir("i-harbor-");
  ok = await startMockServer({
    script: [
      {
        tool_calls: [{ name: "read", arguments: { path: "a.txt" } }],
        usage: { input_tokens: 100, output_tokens: 10, cached_tokens: 40 },
      },
      { text: "it holds alpha", usage: { input_tokens: 200, output_tokens: 5, cached_tokens: 80 } },
    ],
  });
  refused = await startMockServer({ script: [{ error: "auth" }] });
});

afterAll(async () => {
  await ok?.close();
  await refused?.close();
  removeDir(root);
});

test("the adapter's tests pass with python3's standard library, the end-to-end ones included", async () => {
  const bin = join(root, "bin");
  const workspace = join(root, "app");
  for (const d of [bin, workspace]) mkdirSync(d, { recursive: true });
  writeFileSync(join(workspace, "a.txt"), "alpha\n");
  writeFileSync(join(bin, "i"), `#!/bin/sh\nexec "${process.execPath}" "${MAIN}" "$@"\n`);
  chmodSync(join(bin, "i"), 0o755);
  const cases: Record<string, { logs: string; config: string; base_url: string }> = {};
  for (const [name, mock] of [
    ["ok", ok],
    ["refused", refused],
  ] as const) {
    const config = join(root, name, "config");
    mkdirSync(config, { recursive: true });
    // What a task image would not have: the mock model's window and price.
    writeFileSync(
      join(config, "config.json"),
      JSON.stringify({
        models: { "mock-model": { context_window: 100_000, price: { input: 2, output: 10 } } },
      }),
    );
    cases[name] = { logs: join(root, name, "logs"), config, base_url: mock.url };
  }
  const e2e = {
    ...cases,
    workspace,
    path: `${bin}:${process.env.PATH ?? ""}`,
    node: "node",
    mcp_server: join(ROOT, "node_modules", "@modelcontextprotocol", "server-memory", "dist", "index.js"),
  };
  // Not spawnSync: the mock model answers from this process's event loop.
  const r = await startProgram("python3", ["-B", "-m", "unittest", "discover", "-s", "tests", "-v"], {
    cwd: join(ROOT, "integrations", "harbor"),
    env: {
      PATH: process.env.PATH ?? "",
      HOME: root,
      I_HARBOR_E2E: JSON.stringify(e2e),
      I_DATA_DIR: join(root, "data"),
    },
  }).done;
  if (r.code !== 0) console.error(r.stderr);
  expect(r.code).toBe(0);
  expect(r.stderr).toMatch(/\nOK\n$/);
  expect(r.stderr).not.toContain("skipped");
  expect(r.stderr).toContain("test_a_run_fills_the_context_from_done_and_the_trajectory");
}, 300_000);
