// `i mcp list|get|add|remove|trust` as a user types them.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeDir, runCliAsync, tempDir } from "../helpers/cli.ts";
import { BUN, EVERYTHING } from "./rig.ts";

let root: string | undefined;
afterEach(() => {
  if (root) removeDir(root);
  root = undefined;
});

function setup() {
  root = tempDir("i-mcp-cli-");
  const cfg = join(root, "cfg");
  const ws = join(root, "ws");
  mkdirSync(ws, { recursive: true });
  const env = { I_CONFIG_DIR: cfg, I_DATA_DIR: join(root, "data") };
  const i = (sub: string, ...args: string[]) => runCliAsync(["mcp", sub, "--workspace", ws, ...args], env);
  return { cfg, ws, i };
}

describe("i mcp", () => {
  test("add, list with status, get, remove; the user file is private and keeps its other entries", async () => {
    const { cfg, i } = setup();
    expect((await i("list")).stdout).toContain("no MCP servers");
    const added = await i("add", "ev", "--env", "A=1", "--", BUN, EVERYTHING, "stdio");
    expect(added.code).toBe(0);
    expect(
      (await i("add", "--transport", "http", "gone", "http://127.0.0.1:9/mcp", "--header", "X-K: v")).code,
    ).toBe(0);
    const file = join(cfg, "mcp.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8")).mcpServers.gone).toEqual({
      type: "http",
      url: "http://127.0.0.1:9/mcp",
      headers: { "X-K": "v" },
    });
    const listed = await i("list");
    expect(listed.code).toBe(1);
    expect(listed.stdout).toMatch(/^ev +user +connected, 13 tools +stdio: /m);
    expect(listed.stdout).toMatch(/^gone +user +failed: /m);
    const got = await i("get", "ev");
    expect(got.code).toBe(0);
    expect(got.stdout).toContain('"A": "1"');
    expect((await i("remove", "gone")).stdout).toContain('removed server "gone"');
    expect(JSON.parse(readFileSync(file, "utf8")).mcpServers).toHaveProperty("ev");
    expect((await i("list")).code).toBe(0);
  }, 60_000);

  test("bad input: one line, exit 2 (or 1 for a name that is not there)", async () => {
    const { i } = setup();
    for (const [args, code, pattern] of [
      [["add", "x"], 2, /^i mcp: add: the COMMAND is missing after --; usage: /],
      [["add", "--transport", "ftp", "x", "u"], 2, /--transport must be stdio, http or sse/],
      [["add", "x", "--env", "NOEQUALS", "--", "prog"], 2, /--env takes KEY=VALUE/],
      [["add", "--transport", "http", "x", "not a url"], 2, /server "x": field url: must be an http/],
      [["remove", "nope"], 1, /no server "nope"/],
      [["get", "nope"], 1, /no server "nope"/],
      [["frobnicate"], 2, /no subcommand "frobnicate"/],
    ] as const) {
      const [sub, ...rest] = args;
      const r = await i(sub, ...rest);
      expect(r.code).toBe(code);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(pattern);
    }
  }, 60_000);

  test("i doctor: a row per server (start, round trip, tools); exit 1 when one fails", async () => {
    const { ws, i, cfg } = setup();
    await i("add", "ev", "--", BUN, EVERYTHING, "stdio");
    const env = {
      I_CONFIG_DIR: cfg,
      I_DATA_DIR: join(cfg, "..", "data"),
      OPENAI_API_KEY: "sk-test-0000000000",
    };
    const ok = await runCliAsync(["doctor", "-m", "gpt-4o", "--workspace", ws], env);
    expect(ok.stdout).toMatch(/^ev +user +ok +\d+ ms +[\d.]+ ms +13$/m);
    expect(ok.stdout).toContain("all servers ok");
    expect(ok.code).toBe(0);
    await i("add", "--transport", "http", "gone", "http://127.0.0.1:9/mcp");
    const bad = await runCliAsync(["doctor", "-m", "gpt-4o", "--workspace", ws], env);
    expect(bad.stdout).toMatch(/^gone +user +FAILED +- +- +0$/m);
    expect(bad.stdout).toMatch(/^gone: failed: /m);
    expect(bad.code).toBe(1);
  }, 90_000);

  test("trust: lists the project's servers, accepts the file, and a change asks again", async () => {
    const { ws, i } = setup();
    expect((await i("add", "--scope", "project", "proj", "--", BUN, EVERYTHING, "stdio")).code).toBe(0);
    expect((await i("list")).stdout).toMatch(/^proj +project +not accepted: run `i mcp trust`/m);
    const t = await i("trust");
    expect(t.code).toBe(0);
    expect(t.stdout).toContain("proj  stdio: ");
    expect(t.stdout).toContain("accepted for this workspace");
    expect((await i("list")).stdout).toMatch(/^proj +project +connected, 13 tools/m);
    writeFileSync(join(ws, ".mcp.json"), JSON.stringify({ mcpServers: { other: { command: "x" } } }));
    expect((await i("list")).stdout).toMatch(/^other +project +not accepted/m);
    expect((await i("trust", "--revoke")).code).toBe(0);
  }, 60_000);

  test("i trust accepts a project's .mcp.json with its hooks and agents, listing each server's command", async () => {
    const { ws, cfg, i } = setup();
    expect((await i("add", "--scope", "project", "proj", "--", BUN, EVERYTHING, "stdio")).code).toBe(0);
    const env = { I_CONFIG_DIR: cfg, I_DATA_DIR: join(ws, "..", "data") };
    const t = await runCliAsync(["trust", "--workspace", ws], env);
    expect(t.code).toBe(0);
    expect(t.stdout).toContain(join(ws, ".mcp.json"));
    expect(t.stdout).toContain(`mcp server proj: ${BUN} ${EVERYTHING} stdio`);
    expect((await i("list")).stdout).toMatch(/^proj +project +connected, 13 tools/m);
    const revoked = await runCliAsync(["trust", "--revoke", "--workspace", ws], env);
    expect(revoked.stdout).toContain(
      "forgot the acceptance of .i/hooks.json, .i/agents, .mcp.json and .i/lsp.json",
    );
    expect((await i("list")).stdout).toMatch(/^proj +project +not accepted/m);
  }, 60_000);
});
