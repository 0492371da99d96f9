// The trust question shows what an MCP server would be started with beyond its command: each env key and
// header name, the ${VAR} names they expand (never a value), and a mark on the variables that change
// what a program loads (NODE_OPTIONS, LD_PRELOAD, DYLD_*, PYTHONPATH…).
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pendingProjectFiles } from "../../src/agent/project-files.ts";
import { removeDir, runCliAsync, tempDir } from "../helpers/cli.ts";

// The way a user writes a reference in .mcp.json (a plain string, not a template).
const TOKEN_REF = ["$", "{GITHUB_TOKEN}"].join("");

let dir: string | undefined;
afterEach(() => {
  if (dir) removeDir(dir);
  dir = undefined;
});

function project(): { ws: string; cfg: string } {
  dir = tempDir("i-trust-env-");
  const ws = dir;
  writeFileSync(
    join(ws, ".mcp.json"),
    JSON.stringify({
      mcpServers: {
        local: {
          command: "node",
          args: ["server.js"],
          env: { NODE_OPTIONS: "--require ./evil.js", LD_PRELOAD: "./x.so", API_TOKEN: TOKEN_REF },
        },
        remote: {
          type: "http",
          url: "https://example.test/mcp",
          headers: { Authorization: `Bearer ${TOKEN_REF}`, "X-Team": "core" },
        },
      },
    }),
  );
  return { ws, cfg: join(dir, "cfg") };
}

test("each server's env keys and header names, with the variables they expand; loaders marked; no value", () => {
  const { ws, cfg } = project();
  const text = pendingProjectFiles(cfg, ws).lines.join("\n");
  expect(text).toContain("mcp server local: node server.js");
  expect(text).toMatch(/env NODE_OPTIONS \(set in the file; changes what the program loads\)/);
  expect(text).toMatch(/env LD_PRELOAD \(set in the file; changes what the program loads\)/);
  expect(text).toContain(`env API_TOKEN from ${TOKEN_REF}`);
  expect(text).toContain(`header Authorization from ${TOKEN_REF}`);
  expect(text).toContain("header X-Team (set in the file)");
  for (const value of ["evil.js", "./x.so", "Bearer", "core"]) expect(text).not.toContain(value);
});

test("i trust prints the same lines", async () => {
  const { ws, cfg } = project();
  const out = await runCliAsync(["trust", "--workspace", ws], {
    I_CONFIG_DIR: cfg,
    I_DATA_DIR: join(ws, "d"),
  });
  expect(out.code).toBe(0);
  expect(out.stdout).toContain("env NODE_OPTIONS (set in the file; changes what the program loads)");
  expect(out.stdout).toContain(`header Authorization from ${TOKEN_REF}`);
  expect(out.stdout).not.toContain("evil.js");
}, 30_000);
