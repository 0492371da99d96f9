// A module tool's result enters the history bounded whatever its shape: text capped, an oversized image
// named instead of kept. Real worker process (the misbehaving fixture, bound for the search module).
import { afterAll, describe, expect, test } from "bun:test";
import { MODULE_OUTPUT_MAX_CHARS, runToolBatch } from "../../src/agent/tool-calls.ts";
import type { AgentEvent } from "../../src/contract/events.ts";
import { Approvals } from "../../src/tools/approvals.ts";
import { WorkerHost } from "../../src/worker/host.ts";
import { manifestOf, misbehaving, TempDirs } from "../worker/helpers.ts";

const temp = new TempDirs();
const hosts: WorkerHost[] = [];
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  temp.cleanup();
});

describe("module tool results", () => {
  test("parts are bounded like a string result: text capped, an over-limit image left out", async () => {
    const dir = temp.make();
    const manifest = manifestOf(["search"], dir, { search: misbehaving("search", "flood-tool-result") });
    const host = new WorkerHost(manifest, { workspace: dir, configDir: dir });
    hosts.push(host);
    const events: AgentEvent[] = [];
    const [msg] = await runToolBatch([{ id: "c1", name: "grep", arguments: '{"pattern":"x"}' }], {
      hooks: host,
      coreNames: new Set(),
      ctx: { workspace: dir, approvals: new Approvals({ policy: "none" }) },
      emit: (ev) => events.push(ev),
    });
    expect(msg?.role).toBe("tool");
    const content = msg?.content;
    if (!Array.isArray(content)) throw new Error("expected content parts");
    expect(content.map((p) => p.type)).toEqual(["text", "text"]);
    const [text, image] = content.map((p) => (p.type === "text" ? p.text : ""));
    expect(text?.length).toBeLessThan(MODULE_OUTPUT_MAX_CHARS + 200);
    expect(text).toContain("cut from the middle of 200000");
    expect(image).toBe("[image image/png of 6.0 MiB left out: over the 5.0 MiB image limit]");
    expect(msg?.meta?.is_error).toBeUndefined();
  });
});

describe("cancelling a module tool", () => {
  test("the batch ends at once with a cancelled result; the worker's silence is not waited for", async () => {
    const dir = temp.make();
    const manifest = manifestOf(["search"], dir, { search: misbehaving("search", "hang") });
    const host = new WorkerHost(manifest, { workspace: dir, configDir: dir });
    hosts.push(host);
    const abort = new AbortController();
    const started = Date.now();
    setTimeout(() => abort.abort(), 300);
    const [msg] = await runToolBatch([{ id: "c1", name: "grep", arguments: '{"pattern":"x"}' }], {
      hooks: host,
      coreNames: new Set(),
      ctx: { workspace: dir, approvals: new Approvals({ policy: "none" }), signal: abort.signal },
      emit: () => {},
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(msg).toMatchObject({ role: "tool", tool_call_id: "c1", meta: { is_error: true } });
    expect(String(msg?.content)).toBe(
      "cancelled by the user while grep ran; whatever it returns later is discarded",
    );
  });
});
