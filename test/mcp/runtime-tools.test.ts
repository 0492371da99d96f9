// What the core accepts of tools declared at run time: names fitted to every provider's rules, in the
// declaring module's own namespace, never shadowing a core tool or another module's tool; a module of the
// seed's ten cannot declare any.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { fitToolName, RUNTIME_TOOL_NAME } from "../../src/contract/runtime-tools.ts";
import { WorkerHost } from "../../src/worker/host.ts";
import { BUN, manifestOf, TempDirs } from "../worker/helpers.ts";

const DECLARER = join(import.meta.dirname, "fixtures", "declarer.ts");
const dirs = new TempDirs();
let host: WorkerHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
  dirs.cleanup();
});

describe("fitToolName", () => {
  test("short names are joined as they are; odd characters become _", () => {
    expect(fitToolName(["mcp", "github", "create_issue"])).toBe("mcp__github__create_issue");
    expect(fitToolName(["mcp", "my.server", "do it"])).toBe("mcp__my_server__do_it");
  });
  test("a long name is shortened stably, to 64 characters, and two long names stay apart", () => {
    const a = fitToolName([
      "mcp",
      "a-rather-long-server-name",
      "an-even-longer-tool-name-that-goes-on-and-on-1",
    ]);
    const b = fitToolName([
      "mcp",
      "a-rather-long-server-name",
      "an-even-longer-tool-name-that-goes-on-and-on-2",
    ]);
    expect(a).toHaveLength(64);
    expect(RUNTIME_TOOL_NAME.test(a)).toBe(true);
    expect(a).not.toBe(b);
    expect(
      fitToolName(["mcp", "a-rather-long-server-name", "an-even-longer-tool-name-that-goes-on-and-on-1"]),
    ).toBe(a);
  });
});

function hostWith(tools: string, extraModules: ("search" | "mcp")[] = ["mcp"]): WorkerHost {
  const cfg = dirs.make();
  const manifest = manifestOf(extraModules, cfg, { mcp: { exec: [BUN, DECLARER, "--tools", tools] } });
  host = new WorkerHost(manifest, {
    workspace: cfg,
    configDir: cfg,
    reservedToolNames: ["read", "write", "edit", "bash"],
  });
  return host;
}

describe("runtime tool declarations", () => {
  test("clashes with a core tool, another module's tool, or outside the namespace are refused once each", async () => {
    const h = hostWith("mcp__x__ok,bash,grep,mcp__x__ok,other", ["search", "mcp"]);
    const first = await h.refreshTools(0);
    const names = [...h.toolDecls(), ...(h.runtimeDecls().get("mcp") ?? [])].map((t) => t.name);
    expect(names).toContain("mcp__x__ok");
    expect(names.filter((n) => n === "mcp__x__ok")).toHaveLength(1);
    expect(names.filter((n) => n === "grep")).toHaveLength(1);
    expect(names).not.toContain("bash");
    expect(names).not.toContain("other");
    const text = first.notices.join("\n");
    expect(text).toContain('declared tool "bash", which clashes with the core tool "bash"');
    expect(text).toContain('declared tool "grep", which clashes with module "search"\'s tool "grep"');
    expect(text).toContain('declared tool "other" outside its namespace');
    expect(text).toContain('"mcp__x__ok" twice');
    // Said once: the next refresh (same list) is silent.
    expect((await h.refreshTools(0)).notices).toEqual([]);
    expect(await h.callTool("mcp__x__ok", {}, "c1")).toEqual({
      content: "called mcp__x__ok",
      is_error: false,
    });
  });

  test("a replacement of one of the ten modules may not declare runtime tools", async () => {
    const cfg = dirs.make();
    const manifest = manifestOf(["search"], cfg, {
      search: { exec: [BUN, DECLARER, "--as-search", "--tools", "mcp__a"] },
    });
    host = new WorkerHost(manifest, { workspace: cfg, configDir: cfg });
    await expect(host.start(["search"])).rejects.toThrow(
      /runtime_tools, but this module owns no tool namespace/,
    );
  });
});
