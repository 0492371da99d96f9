import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { History } from "../../../src/contract/history.ts";
import { tallyMessage } from "../../../src/lib/estimator.ts";
import { createMemoryModule } from "../../../workers/memory/index.ts";
import { MAX_RENDERED_CHARS, NOTES_HEADING } from "../../../workers/memory/render.ts";
import { MAX_NOTE_CHARS, MAX_NOTES, memoryFilePath } from "../../../workers/memory/store.ts";
import { removeDir, tempDir } from "../../helpers/cli.ts";
import { inProcess, type WorkerClient } from "../../helpers/worker-io.ts";

let root: string;
let dataDir: string;
let workspace: string;
let worker: WorkerClient;

beforeEach(() => {
  root = tempDir("i-memory-");
  dataDir = join(root, "data");
  workspace = join(root, "ws");
  mkdirSync(workspace, { recursive: true });
  worker = inProcess(createMemoryModule(dataDir));
});

afterEach(async () => {
  await worker.close();
  removeDir(root);
});

type Result = { content: string; is_error: boolean };
async function memory(args: unknown, ws = workspace): Promise<Result> {
  const reply = await worker.request("tool", { name: "memory", arguments: args, call_id: "c" }, ws);
  return reply.data?.result as Result;
}

describe("memory tool", () => {
  test("add returns an id, list shows the notes, remove forgets one", async () => {
    expect(await memory({ action: "list" })).toEqual({
      content: "no notes for this workspace",
      is_error: false,
    });
    expect(await memory({ action: "add", text: "tests run with `bun test`" })).toEqual({
      content: "remembered note 1",
      is_error: false,
    });
    expect((await memory({ action: "add", text: "prefer small\nfiles" })).content).toBe("remembered note 2");
    expect((await memory({ action: "list" })).content).toBe(
      "- [1] tests run with `bun test`\n- [2] prefer small files",
    );
    expect(await memory({ action: "remove", id: "1" })).toEqual({
      content: "removed note 1",
      is_error: false,
    });
    expect((await memory({ action: "list" })).content).toBe("- [2] prefer small files");
    // ids are never reused
    expect((await memory({ action: "add", text: "third" })).content).toBe("remembered note 3");
  });

  test("notes are stored atomically per workspace, in the data dir", async () => {
    await memory({ action: "add", text: "only here" });
    const file = memoryFilePath(dataDir, workspace);
    expect(JSON.parse(readFileSync(file, "utf8")).notes[0].text).toBe("only here");
    expect(readdirSync(join(dataDir, "memory")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    // notes may hold private details of the workspace: owner-only, like sessions
    if (process.platform !== "win32") expect(statSync(file).mode & 0o777).toBe(0o600);
    const other = join(root, "other-ws");
    mkdirSync(other);
    expect((await memory({ action: "list" }, other)).content).toBe("no notes for this workspace");
  });

  test("errors: missing text, unknown id, missing id, too long, too many, bad arguments", async () => {
    expect(await memory({ action: "add" })).toMatchObject({ is_error: true });
    expect((await memory({ action: "add", text: "  " })).content).toContain('"text" is required');
    expect((await memory({ action: "remove", id: "9" })).content).toContain('no note with id "9"');
    expect((await memory({ action: "remove" })).content).toContain('"id" is required');
    expect((await memory({ action: "add", text: "n".repeat(MAX_NOTE_CHARS + 1) })).content).toContain(
      "over the 2000 limit",
    );
    expect((await memory({ action: "forget" })).content).toContain(
      "memory: invalid arguments: field action:",
    );
    for (let i = 0; i < MAX_NOTES; i++) await memory({ action: "add", text: `n${i}` });
    expect((await memory({ action: "add", text: "one too many" })).content).toContain("remove outdated ones");
  });

  test("a damaged memory file is an error naming it, and is left as it was", async () => {
    const file = memoryFilePath(dataDir, workspace);
    mkdirSync(join(dataDir, "memory"), { recursive: true });
    writeFileSync(file, "{broken");
    const reply = await worker.request(
      "tool",
      { name: "memory", arguments: { action: "add", text: "x" }, call_id: "c" },
      workspace,
    );
    expect(reply.error).toContain(file);
    expect(readFileSync(file, "utf8")).toBe("{broken");
  });
});

describe("system_prompt", () => {
  test("no notes: unchanged; with notes: appended under the heading", async () => {
    const data = { system: "BASE", model: "m" };
    expect((await worker.request("system_prompt", data, workspace)).data).toEqual(data);
    await memory({ action: "add", text: "the API lives in src/api" });
    const reply = await worker.request("system_prompt", data, workspace);
    expect(reply.data?.system).toContain(`BASE\n\n${NOTES_HEADING}`);
    expect(reply.data?.system).toContain("- [1] the API lives in src/api");
    expect(reply.data?.model).toBe("m");
  });

  test("the notes block is bounded and says how many notes were left out", async () => {
    for (let i = 0; i < 20; i++) await memory({ action: "add", text: `${i} ${"w".repeat(1500)}` });
    const system = (await worker.request("system_prompt", { system: "" }, workspace)).data?.system as string;
    expect(system.length).toBeLessThanOrEqual(MAX_RENDERED_CHARS);
    expect(system).toMatch(/\[\d+ more notes not shown; call memory with action "list"/);
  });
});

describe("before_compact_commit", () => {
  const candidate = () => [
    { role: "system", content: "SYS" },
    { role: "user", content: "[Context summary] earlier work", meta: { summary: true } },
    { role: "assistant", content: "", tool_calls: [{ id: "t1", name: "read", arguments: "{}" }] },
    { role: "tool", tool_call_id: "t1", content: "file text" },
    { role: "user", content: "go on" },
  ];

  test("the notes are appended to the summary message; the rest of the candidate is untouched", async () => {
    await memory({ action: "add", text: "deploy with make ship" });
    const data = { candidate: candidate(), summary: "earlier work", cut: 7, state: { s: 1 }, compacted: 6 };
    const reply = await worker.request("before_compact_commit", data, workspace);
    const next = reply.data?.candidate as Record<string, unknown>[];
    expect(History.safeParse(next).success).toBe(true);
    expect(next[1]).toEqual({
      role: "user",
      meta: { summary: true },
      content: [
        { type: "text", text: "[Context summary] earlier work" },
        { type: "text", text: expect.stringContaining("- [1] deploy with make ship") },
      ],
    });
    expect(next.slice(2)).toEqual(candidate().slice(2));
    expect(next[0]).toEqual(candidate()[0]);
    expect(reply.data).toMatchObject({ summary: "earlier work", cut: 7, state: { s: 1 }, compacted: 6 });
  });

  test("running twice does not add the notes twice; parts content keeps its parts", async () => {
    await memory({ action: "add", text: "remember me" });
    const c = candidate();
    c[1] = { role: "user", content: [{ type: "text", text: "S" }] } as unknown as (typeof c)[1];
    const once = (await worker.request("before_compact_commit", { candidate: c }, workspace)).data;
    const twice = (await worker.request("before_compact_commit", once ?? {}, workspace)).data;
    expect(twice).toEqual(once);
    const parts = ((once?.candidate ?? []) as { content: { text: string }[] }[])[1]?.content ?? [];
    expect(parts.length).toBe(2);
    expect(parts[0]?.text).toBe("S");
  });

  test("no notes: the data comes back unchanged", async () => {
    const data = { candidate: candidate(), summary: "s" };
    expect((await worker.request("before_compact_commit", data, workspace)).data).toEqual(data);
  });

  test("a candidate without a user summary message is an error", async () => {
    await memory({ action: "add", text: "x" });
    const bad = await worker.request(
      "before_compact_commit",
      {
        candidate: [
          { role: "system", content: "S" },
          { role: "assistant", content: "A" },
        ],
      },
      workspace,
    );
    expect(bad.error).toContain("candidate[1] must be the user summary message");
  });

  test("the notes are taken from restore_room and what is left is passed on", async () => {
    for (let i = 0; i < 20; i++) await memory({ action: "add", text: `note ${i} ${"w".repeat(300)}` });
    const summaryTokens = (m: unknown) => {
      const t = { text: 0, images: 0 };
      tallyMessage(m, t);
      return t.text;
    };
    const base = candidate();
    // Room for the whole block: all of it, the room reduced by what it cost.
    const wide = (
      await worker.request("before_compact_commit", { candidate: base, restore_room: 5000 }, workspace)
    ).data as { candidate: unknown[]; restore_room: number };
    const wideCost = Math.ceil(summaryTokens(wide.candidate[1]) - summaryTokens(base[1]));
    expect(wideCost).toBeGreaterThan(1000);
    expect(wide.restore_room).toBe(5000 - wideCost);
    expect(JSON.stringify(wide.candidate[1])).toContain("note 19 ");
    // A small room: fewer notes (the oldest), counted, within the room.
    const narrow = (
      await worker.request("before_compact_commit", { candidate: base, restore_room: 600 }, workspace)
    ).data as { candidate: unknown[]; restore_room: number };
    const narrowCost = Math.ceil(summaryTokens(narrow.candidate[1]) - summaryTokens(base[1]));
    expect(narrowCost).toBeLessThanOrEqual(600);
    expect(narrow.restore_room).toBe(600 - narrowCost);
    const text = JSON.stringify(narrow.candidate[1]);
    expect(text).toContain("note 0 ");
    expect(text).not.toContain("note 19 ");
    expect(text).toMatch(/\d+ more notes not shown/);
    // No room: the candidate and the room come back as they were sent.
    const none = { candidate: base, restore_room: 10 };
    expect((await worker.request("before_compact_commit", none, workspace)).data).toEqual(none);
  });

  test("notes added during a session survive compaction and reach the next session's system prompt", async () => {
    await memory({ action: "add", text: "port is 8123" });
    const committed = (await worker.request("before_compact_commit", { candidate: candidate() }, workspace))
      .data;
    expect(JSON.stringify(committed)).toContain("port is 8123");
    await worker.close();
    worker = inProcess(createMemoryModule(dataDir));
    const system = (await worker.request("system_prompt", { system: "" }, workspace)).data?.system;
    expect(system).toContain("port is 8123");
    expect(existsSync(memoryFilePath(dataDir, workspace))).toBe(true);
  });
});
