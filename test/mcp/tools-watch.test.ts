// The `tools_watch` event: the mcp module holds the request open until its list changes, so the core
// skips the `tools` round trip before a model request while nothing changed; a tool the server adds
// (notifications/tools/list_changed) answers it at once; a module that does not watch is asked as before.
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ToolsWatch } from "../../src/agent/tools-watch.ts";
import { WorkerHost } from "../../src/worker/host.ts";
import { BUN, manifestOf, TempDirs } from "../worker/helpers.ts";
import { everything, FIXTURES } from "./rig.ts";

const dirs = new TempDirs();
let host: WorkerHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
  dirs.cleanup();
});

function mcpHost(
  servers: Record<string, unknown> = { crashy: { command: BUN, args: [join(FIXTURES, "crashy.ts")] } },
): WorkerHost {
  const cfg = dirs.make();
  writeFileSync(join(cfg, "mcp.json"), JSON.stringify({ mcpServers: servers }));
  host = new WorkerHost(manifestOf(["mcp"], cfg), { workspace: cfg, configDir: cfg });
  return host;
}

describe("tools_watch", () => {
  test("answered after its wait when nothing changed; at once when a tool is added", async () => {
    const h = mcpHost();
    await h.refreshTools();
    const t0 = performance.now();
    expect(await h.watchTools("mcp", 300)).toBe(false);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);

    const watch = h.watchTools("mcp", 30_000);
    const grew = await h.callTool("mcp__crashy__grow", {}, "c1");
    expect(JSON.stringify(grew.content)).toContain("grew");
    const t1 = performance.now();
    expect(await watch).toBe(true);
    expect(performance.now() - t1).toBeLessThan(5_000);
    const r = await h.refreshTools();
    expect(r.changed).toBe(true);
    expect(
      h
        .runtimeDecls()
        .get("mcp")
        ?.map((d) => d.name),
    ).toContain("mcp__crashy__grown");
  }, 30_000);

  test("the refresher's view: nothing due while a watch is open, due again once it answered", async () => {
    const h = mcpHost();
    await h.refreshTools();
    const w = new ToolsWatch(h, 30_000);
    expect(w.due(["mcp"])).toEqual(["mcp"]);
    w.asked(["mcp"]);
    expect(w.due(["mcp"])).toEqual([]);
    await h.callTool("mcp__crashy__grow", {}, "c1");
    for (let i = 0; i < 100 && w.due(["mcp"]).length === 0; i++) await Bun.sleep(20);
    expect(w.due(["mcp"])).toEqual(["mcp"]);
  }, 30_000);

  test("a module that does not watch is asked before every request", async () => {
    const cfg = dirs.make();
    const declarer = join(FIXTURES, "declarer.ts");
    host = new WorkerHost(
      manifestOf(["mcp"], cfg, { mcp: { exec: [BUN, declarer, "--tools", "mcp__x__a"] } }),
      {
        workspace: cfg,
        configDir: cfg,
      },
    );
    await host.refreshTools(0);
    expect(await host.watchTools("mcp", 1_000)).toBeUndefined();
    const w = new ToolsWatch(host);
    w.asked(["mcp"]);
    await Bun.sleep(10);
    expect(w.due(["mcp"])).toEqual(["mcp"]);
  }, 30_000);

  test("a resource the server adds (resources/list_changed) is listed after the watch says so", async () => {
    const h = mcpHost({ everything });
    await h.refreshTools();
    const uri = "demo://resource/session/w.gz";
    expect(h.runtimeResources().map((r) => r.uri)).not.toContain(uri);
    const watch = h.watchTools("mcp", 30_000);
    const made = await h.callTool(
      "mcp__everything__gzip-file-as-resource",
      { name: "w.gz", data: "data:text/plain,hello%20resources" },
      "c1",
    );
    expect(made.is_error).toBe(false);
    expect(await watch).toBe(true);
    await h.refreshTools();
    expect(h.runtimeResources().map((r) => r.uri)).toContain(uri);
    // Its contents are gzip bytes: measured, not sent.
    const [c] = await h.readResource("everything", uri);
    expect(c?.text).toBeUndefined();
    expect(c?.binary_bytes).toBeGreaterThan(10);
  }, 30_000);
});
