import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  acceptProjectFiles,
  isTrusted,
  projectTrust,
  projectTrustRefusal,
  revokeProjectFiles,
  untrustedProjectFiles,
} from "../../src/config/project-trust.ts";
import { isTrustedContent } from "../../src/lib/trust-store.ts";

function setup() {
  const root = mkdtempSync(join(tmpdir(), "i-trust-"));
  const config = join(root, "config");
  const ws = join(root, "ws");
  mkdirSync(ws);
  return { config, ws };
}

describe("project trust", () => {
  test("a file is untrusted until accepted, trusted after, and untrusted again once it changes", () => {
    const { config, ws } = setup();
    writeFileSync(join(ws, ".mcp.json"), '{"mcpServers":{}}');
    const files = [".mcp.json", ".i/hooks.json"];
    const [mcp, hooks] = projectTrust(config, ws, files);
    expect(mcp?.state).toBe("untrusted");
    expect(hooks?.state).toBe("absent");
    expect(untrustedProjectFiles(config, ws, files).map((f) => f.file)).toEqual([".mcp.json"]);
    acceptProjectFiles(config, ws, untrustedProjectFiles(config, ws, files));
    expect(isTrusted(config, ws, ".mcp.json")).toBe(true);
    expect(statSync(join(config, "trust.json")).mode & 0o777).toBe(0o600);
    expect(isTrustedContent(config, ws, ".mcp.json", '{"mcpServers":{}}')).toBe(true);
    expect(isTrustedContent(config, ws, ".mcp.json", '{"mcpServers":{"x":{}}}')).toBe(false);
    writeFileSync(join(ws, ".mcp.json"), '{"mcpServers":{"evil":{"command":"rm"}}}');
    expect(projectTrust(config, ws, [".mcp.json"])[0]?.state).toBe("changed");
    const changed = untrustedProjectFiles(config, ws, files)[0];
    if (!changed) throw new Error("expected a changed file");
    const line = projectTrustRefusal(changed, "i mcp trust");
    expect(line).toContain("changed since it was accepted");
    expect(line).toContain("i mcp trust");
  });

  test("what is recorded is what the user saw: a change between the look and the accept stays untrusted", () => {
    const { config, ws } = setup();
    writeFileSync(join(ws, ".mcp.json"), "{}");
    const seen = untrustedProjectFiles(config, ws, [".mcp.json"]);
    writeFileSync(join(ws, ".mcp.json"), '{"mcpServers":{"sneaky":{"command":"x"}}}');
    acceptProjectFiles(config, ws, seen);
    expect(isTrusted(config, ws, ".mcp.json")).toBe(false);
  });

  test("a directory is fingerprinted with its files; revoke forgets", () => {
    const { config, ws } = setup();
    mkdirSync(join(ws, ".i", "agents"), { recursive: true });
    writeFileSync(join(ws, ".i", "agents", "a.md"), "one");
    acceptProjectFiles(config, ws, projectTrust(config, ws, [".i/agents"]));
    expect(isTrusted(config, ws, ".i/agents")).toBe(true);
    writeFileSync(join(ws, ".i", "agents", "b.md"), "two");
    expect(isTrusted(config, ws, ".i/agents")).toBe(false);
    acceptProjectFiles(config, ws, projectTrust(config, ws, [".i/agents"]));
    expect(isTrusted(config, ws, ".i/agents")).toBe(true);
    revokeProjectFiles(config, ws, [".i/agents"]);
    expect(isTrusted(config, ws, ".i/agents")).toBe(false);
    expect(JSON.parse(readFileSync(join(config, "trust.json"), "utf8")).workspaces).toBeDefined();
  });

  test("a malformed trust.json trusts nothing and is not overwritten by an accept", () => {
    const { config, ws } = setup();
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, "trust.json"), "{nope");
    writeFileSync(join(ws, ".mcp.json"), "{}");
    expect(isTrusted(config, ws, ".mcp.json")).toBe(false);
    expect(() => acceptProjectFiles(config, ws, projectTrust(config, ws, [".mcp.json"]))).toThrow(
      /trust\.json: malformed JSON/,
    );
    expect(readFileSync(join(config, "trust.json"), "utf8")).toBe("{nope");
  });
});
