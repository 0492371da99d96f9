// Manifest generation from profile + plugins.json + bindings.json (DESIGN §4–§5, seed 000).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Manifest } from "../../src/contract/manifest.ts";
import { removeDir, runCli, tempDir } from "../helpers/cli.ts";

let dir: string;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => removeDir(dir));

function manifest(profile: string, files: Record<string, unknown> = {}): Manifest {
  for (const name of ["plugins.json", "bindings.json"]) {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(files[name] ?? {}));
  }
  const r = runCli(["--runtime", "manifest", profile], { I_CONFIG_DIR: dir });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return Manifest.parse(JSON.parse(r.stdout));
}

const names = (m: Manifest) => m.modules.map((x) => x.name);

describe("i --runtime manifest", () => {
  test("standard lists budget and compact and validates against the schema", () => {
    const m = manifest("standard");
    expect(names(m)).toEqual([
      "budget",
      "prompts",
      "compact",
      "skills",
      "memory",
      "cache",
      "search",
      "hooks",
      "agents",
      "mcp",
      "plan",
      "lsp",
    ]);
    // mcp holds server processes and serves concurrently: a process of its own, never the shared one
    expect(m.modules.find((x) => x.name === "mcp")?.exec.slice(-2)).toEqual(["worker", "mcp"]);
    expect(m.modules.find((x) => x.name === "lsp")?.exec.slice(-2)).toEqual(["worker", "lsp"]);
    expect(m.modules.find((x) => x.name === "budget")?.exec.at(-1)).toBe(
      "budget,prompts,compact,skills,memory,cache,search,hooks,plan",
    );
    expect(m.profile).toBe("standard");
    expect(m.protocol).toBe(1);
    expect(m.config_dir).toBe(dir);
    expect(m.hooks.compact_plan?.map((h) => h.module)).toEqual(["compact"]);
    // prompts runs before compact so the prompt it supplies reaches the compactor
    expect(m.hooks.before_compact?.map((h) => h.module)).toEqual(["prompts", "compact"]);
    expect(Object.keys(m.tools).sort()).toEqual(["find", "grep", "lsp", "memory", "plan", "skill", "task"]);
  });

  test("compact profile lists exactly budget and compact", () => {
    expect(names(manifest("compact"))).toEqual(["budget", "compact"]);
  });

  test("all six profiles", () => {
    expect(names(manifest("full"))).toEqual([
      "budget",
      "prompts",
      "compact",
      "skills",
      "memory",
      "cache",
      "search",
      "web",
      "responses",
      "hooks",
      "agents",
      "mcp",
      "plan",
      "lsp",
    ]);
    expect(names(manifest("responses-compact"))).toEqual(["budget", "compact", "responses"]);
    expect(names(manifest("budget"))).toEqual(["budget"]);
    expect(names(manifest("responses-budget"))).toEqual(["budget", "responses"]);
  });

  test("plugins.json disabled removes compact entirely", () => {
    const m = manifest("standard", { "plugins.json": { disabled: ["compact"] } });
    expect(names(m)).not.toContain("compact");
    for (const entries of Object.values(m.hooks))
      for (const e of entries) expect(e.module).not.toBe("compact");
    expect(m.hooks.compact_plan).toBeUndefined();
    expect(m.hooks.budget?.map((h) => h.module)).toEqual(["budget"]);
  });

  test("plugins.json profile is the default profile", () => {
    writeFileSync(join(dir, "plugins.json"), JSON.stringify({ profile: "budget" }));
    const r = runCli(["--runtime", "manifest"], { I_CONFIG_DIR: dir });
    expect(r.code).toBe(0);
    expect(names(Manifest.parse(JSON.parse(r.stdout)))).toEqual(["budget"]);
  });

  test("a compact binding is carried by every compact hook entry; others stay built-in", () => {
    const exec = ["/opt/my-compactor/bin/compactor", "--compact"];
    const m = manifest("standard", { "bindings.json": { compact: { exec, cwd: "/opt/my-compactor" } } });
    const compact = m.modules.find((x) => x.name === "compact");
    expect(compact?.builtin).toBe(false);
    expect(compact?.exec).toEqual(exec);
    for (const event of ["compact_plan", "before_compact", "after_compact", "before_compact_commit"]) {
      const entry = m.hooks[event]?.find((e) => e.module === "compact");
      expect(entry?.exec).toEqual(exec);
      expect(entry?.cwd).toBe("/opt/my-compactor");
    }
    // names and declarations do not change
    expect(compact?.hooks).toEqual([
      "compact_plan",
      "before_compact",
      "after_compact",
      "before_compact_commit",
    ]);
    // the remaining built-ins share one process, which no longer serves compact
    const budget = m.modules.find((x) => x.name === "budget");
    expect(budget?.builtin).toBe(true);
    expect(budget?.exec.at(-1)).toBe("budget,prompts,skills,memory,cache,search,hooks,plan");
    expect(budget?.cwd).toBe(dir);
  });

  test("a bound module without cwd defaults to config_dir; tools of a bound module carry the binding", () => {
    const m = manifest("standard", { "bindings.json": { search: { exec: ["/usr/local/bin/my-search"] } } });
    expect(m.tools.grep?.exec).toEqual(["/usr/local/bin/my-search"]);
    expect(m.tools.find?.exec).toEqual(["/usr/local/bin/my-search"]);
    expect(m.tools.grep?.cwd).toBe(dir);
    expect(m.tools.grep?.input_schema).toHaveProperty("properties.pattern");
  });

  test("removing the binding restores the default", () => {
    manifest("standard", { "bindings.json": { compact: { exec: ["/x/c"] } } });
    const m = manifest("standard");
    const compact = m.modules.find((x) => x.name === "compact");
    expect(compact?.builtin).toBe(true);
    expect(compact?.exec.slice(-2)).toEqual([
      "worker",
      "budget,prompts,compact,skills,memory,cache,search,hooks,plan",
    ]);
  });

  test("unknown profile is a clear error", () => {
    const r = runCli(["--runtime", "manifest", "everything"], { I_CONFIG_DIR: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'i --runtime: unknown profile "everything"; use one of: standard, full, compact, responses-compact, budget, responses-budget',
    );
  });
});
