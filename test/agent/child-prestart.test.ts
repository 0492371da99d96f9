// A child task starts, before its task arrives, only the worker processes its first model request waits
// for: the modules with hooks, and the MCP module when servers are configured; never the agents module
// (a child has no `task`). Checked on the real `i task-child`, through its startup marks.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { firstRequestModules } from "../../src/agent/child-prestart.ts";
import { DEFAULT_PROFILE } from "../../src/contract/profiles.ts";
import { generateManifest } from "../../src/manifest/generate.ts";
import { removeDir, runCli, tempDir } from "../helpers/cli.ts";

let root: string;
beforeAll(() => {
  root = tempDir();
});
afterAll(() => removeDir(root));

/** The worker groups a child started while it waited (stdin ends at once: it had no task). */
function spawnedGroups(cfg: string, ws: string): string[] {
  const r = runCli(
    ["task-child"],
    { I_CONFIG_DIR: cfg, I_DATA_DIR: join(root, "data"), I_DEBUG_STARTUP: "1" },
    ws,
    "",
  );
  expect(r.code).toBe(0);
  return [...r.stderr.matchAll(/^startup \S+ \S+ worker spawn: (.*)$/gm)].map((m) => m[1] as string);
}

describe("a child task's head start", () => {
  test("the shared built-in worker starts; the agents and (no servers) MCP workers do not", () => {
    const cfg = join(root, "cfg1");
    const ws = join(root, "ws1");
    for (const d of [cfg, ws]) mkdirSync(d, { recursive: true });
    const groups = spawnedGroups(cfg, ws);
    expect(groups).toHaveLength(1);
    expect(groups[0]?.split(",")).toContain("budget");
    expect(groups[0]?.split(",")).toContain("hooks");
    expect(groups.join(",")).not.toContain("agents");
    expect(groups.join(",")).not.toContain("mcp");
  });

  test("with MCP servers configured, the MCP worker starts too (its tools are in the first request)", () => {
    const cfg = join(root, "cfg2");
    const ws = join(root, "ws2");
    for (const d of [cfg, ws]) mkdirSync(d, { recursive: true });
    writeFileSync(join(cfg, "mcp.json"), JSON.stringify({ mcpServers: {} }));
    const groups = spawnedGroups(cfg, ws);
    expect(groups).toContain("mcp");
    expect(groups.join(",")).not.toContain("agents");
  });

  test("a bound module serving only tools is left to its first call; a bound module with hooks starts", () => {
    const base = generateManifest({ profile: DEFAULT_PROFILE, configDir: root, plugins: {}, bindings: {} });
    const bound = generateManifest({
      profile: DEFAULT_PROFILE,
      configDir: root,
      plugins: {},
      bindings: { search: { exec: ["my-search"] }, memory: { exec: ["my-memory"] } },
    });
    expect(firstRequestModules(base, true)).not.toContain("agents");
    expect(firstRequestModules(base, true)).not.toContain("mcp");
    // The language servers' sync only follows a tool call: its worker waits for the first edit or read.
    expect(base.modules.map((m) => m.name)).toContain("lsp");
    expect(firstRequestModules(base, true)).not.toContain("lsp");
    expect(firstRequestModules(base, false)).toContain("mcp");
    expect(firstRequestModules(bound, true)).not.toContain("search");
    expect(firstRequestModules(bound, true)).toContain("memory");
  });
});
