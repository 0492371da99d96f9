// The built-in compact module, through a real worker process: planning (recommendation, keep_recent,
// turn boundaries, enabled:false), transcript preparation (prune first, private state stripped, images
// per policy, prompt precedence), summary postprocessing and reference snapshot restoration.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { History, Message } from "../../../src/contract/history.ts";
import { WorkerHost } from "../../../src/worker/host.ts";
import { syntheticHistory, textOf } from "../../compaction/helpers.ts";
import { manifestOf, TempDirs } from "../../worker/helpers.ts";

const dirs = new TempDirs();
const configDir = dirs.make("i-compact-config-");
const workspace = dirs.make("i-compact-ws-");
const host = new WorkerHost(manifestOf(["compact"], configDir), { workspace, configDir });
const send = (event: string, data: Record<string, unknown>) => host.send("compact", event, data);

afterEach(() => {
  for (const f of ["compact.json", "my-prompt.txt"]) rmSync(join(configDir, f), { force: true });
});
afterAll(async () => {
  await host.close();
  dirs.cleanup();
});

const compactJson = (v: unknown) => writeFileSync(join(configDir, "compact.json"), JSON.stringify(v));
const planData = (history: History, recommendation: string, extra: Record<string, unknown> = {}) => ({
  budget: { recommendation },
  model: { name: "m", context_window: 100_000 },
  history,
  cut: null,
  state: null,
  ...extra,
});

describe("compact_plan", () => {
  const history = syntheticHistory({ turns: 10 }); // 41 messages; turn starts every 4 from 1, tool batches inside

  test("follows the budget: declines on none, plans on compact and over", async () => {
    const none = await send("compact_plan", planData(history, "none"));
    expect(none.cut).toBeNull();
    expect(String(none.decline_reason)).toContain("does not recommend");
    for (const rec of ["compact", "over"]) {
      const out = await send("compact_plan", planData(history, rec));
      expect(out.cut).toBe(37); // the last turn start keeping ≥ 4 messages
    }
  });

  test("a manual request (force) plans whatever the recommendation", async () => {
    const out = await send("compact_plan", planData(history, "none", { force: true }));
    expect(out.cut).toBe(37);
    expect(out.state).toMatchObject({ by: "i-compact", keep_recent: 4, images: "keep" });
  });

  test("keep_recent is a minimum: the cut walks back to a turn boundary, never into a tool batch", async () => {
    compactJson({ keep_recent: 6 });
    const out = await send("compact_plan", planData(history, "compact"));
    // 41 - 6 = 35 is a tool result; the nearest turn boundary before it is 34, the assistant message
    // whose call 35 answers, so the whole batch stays and 7 messages are kept.
    expect(out.cut).toBe(34);
    const m = history[out.cut as number] as Message;
    expect(m.role).toBe("assistant");
    expect(m.tool_calls?.[0]?.id).toBe(history[35]?.tool_call_id as string);
  });

  test("enabled:false declines and names the file", async () => {
    compactJson({ enabled: false });
    const out = await send("compact_plan", planData(history, "over"));
    expect(out.cut).toBeNull();
    expect(String(out.decline_reason)).toContain("compact.json");
  });

  test("no turn boundary that leaves something to summarise: declines", async () => {
    compactJson({ keep_recent: 40 });
    const out = await send("compact_plan", planData(history, "over"));
    expect(out.cut).toBeNull();
  });

  test("a malformed compact.json is an error naming the file and field", async () => {
    compactJson({ keep_recent: 0 });
    await expect(send("compact_plan", planData(history, "over"))).rejects.toThrow(
      /compact\.json: field keep_recent/,
    );
  });
});

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

function messagesWithImage(): Message[] {
  return [
    { role: "user", content: "check the logo", meta: { ts: "t" } },
    {
      role: "assistant",
      content: "",
      tool_calls: [{ id: "c1", name: "read", arguments: JSON.stringify({ path: "logo.png" }) }],
      adapter: { reasoning: "secret-reasoning-state" },
    },
    {
      role: "tool",
      tool_call_id: "c1",
      content: [
        { type: "text", text: "image file" },
        { type: "image", media_type: "image/png", data: PNG },
      ],
    },
    { role: "assistant", content: "The logo is fine." },
    { role: "user", content: "now run the tests" },
    {
      role: "assistant",
      content: "",
      tool_calls: [{ id: "c2", name: "bash", arguments: JSON.stringify({ command: "npm test" }) }],
    },
    { role: "tool", tool_call_id: "c2", content: `${"HEAD ".repeat(2000)}${"TAIL ".repeat(2000)}` },
  ];
}

const prepareData = (extra: Record<string, unknown> = {}) => ({
  messages: messagesWithImage(),
  cut: 8,
  state: null,
  model: { name: "m", context_window: 100_000 },
  policy: { trigger_ratio: 0.85, rearm_ratio: 0.7 },
  workspace,
  ...extra,
});

describe("before_compact", () => {
  test("prunes first: tool output cut to head and tail, adapter state and bookkeeping stripped", async () => {
    const out = await send("before_compact", prepareData());
    const messages = out.messages as Message[];
    const output = textOf(messages[6]);
    expect(Buffer.byteLength(output)).toBeLessThan(2300);
    expect(output.startsWith("HEAD")).toBe(true);
    expect(output.trimEnd().endsWith("TAIL")).toBe(true);
    expect(output).toContain("cut from the middle");
    expect(JSON.stringify(messages)).not.toContain("secret-reasoning-state");
    expect(messages.every((m) => m.meta === undefined && m.adapter === undefined)).toBe(true);
    expect("summary" in out).toBe(false);
  });

  test("images keep: no base64 in the transcript, bounded summary_images and retained_images", async () => {
    const out = await send("before_compact", prepareData());
    expect(JSON.stringify(out.messages)).not.toContain(PNG);
    expect(textOf((out.messages as Message[])[2])).toContain("image #1 (image/png");
    expect(out.summary_images).toEqual([{ type: "image", media_type: "image/png", data: PNG }]);
    expect(out.retained_images).toEqual([{ type: "image", media_type: "image/png", data: PNG }]);
  });

  test("images omit and describe (compact.json), and the model's images setting when the file says nothing", async () => {
    compactJson({ images: "omit" });
    const omitted = await send("before_compact", prepareData());
    expect(textOf((omitted.messages as Message[])[2])).toContain("omitted");
    expect(omitted.summary_images).toBeUndefined();
    expect(omitted.retained_images).toBeUndefined();

    // describe: the summariser is shown the image and asked to describe it; nothing is retained.
    compactJson({ images: "describe" });
    const described = await send("before_compact", prepareData());
    const marker = textOf((described.messages as Message[])[2]);
    expect(marker).toContain("from the result of read(logo.png)");
    expect(marker).toContain("attached to this request; describe it in the summary");
    expect(JSON.stringify(described.messages)).not.toContain(PNG);
    expect(described.summary_images).toEqual([{ type: "image", media_type: "image/png", data: PNG }]);
    expect(described.retained_images).toBeUndefined();
    expect(String(described.prompt)).toContain('describe each one under "## Images"');
    expect(described.notes).toBeUndefined();

    // describe on a text-only model: omit, with a note for the user.
    const textOnly = await send(
      "before_compact",
      prepareData({ model: { name: "llama3", context_window: 8192, images: "omit" } }),
    );
    expect(textOnly.summary_images).toBeUndefined();
    expect(textOf((textOnly.messages as Message[])[2])).toContain("omitted");
    expect(textOnly.notes).toEqual([
      expect.stringContaining('model llama3 is text-only (images: "omit"); the old images are omitted'),
    ]);

    rmSync(join(configDir, "compact.json"));
    const byModel = await send(
      "before_compact",
      prepareData({ model: { name: "m", context_window: 1000, images: "omit" } }),
    );
    expect(byModel.retained_images).toBeUndefined();
  });

  test("prompt precedence: default with {{workspace}} and instructions", async () => {
    const out = await send("before_compact", prepareData({ instructions: "Focus on the failing test." }));
    const prompt = String(out.prompt);
    expect(prompt).toContain(`in the workspace ${workspace}`);
    expect(prompt).not.toContain("{{workspace}}");
    expect(prompt.trimEnd().endsWith("Focus on the failing test.")).toBe(true);
  });

  test("prompt precedence: an earlier hook's prompt is used as-is", async () => {
    const out = await send(
      "before_compact",
      prepareData({ prompt: "EARLIER HOOK PROMPT", instructions: "ignored here" }),
    );
    expect(out.prompt).toBe("EARLIER HOOK PROMPT");
  });

  test("prompt precedence: the compact.json prompt file wins, relative to the file, bounded to 32000 chars", async () => {
    writeFileSync(join(configDir, "my-prompt.txt"), "Custom prompt for {{workspace}}.");
    compactJson({ prompt: "my-prompt.txt" });
    const out = await send("before_compact", prepareData({ prompt: "EARLIER", instructions: "Be brief." }));
    expect(String(out.prompt)).toStartWith(`Custom prompt for ${workspace}.`);
    expect(String(out.prompt).trimEnd()).toEndWith("Be brief.");

    writeFileSync(join(configDir, "my-prompt.txt"), "p".repeat(32001));
    await expect(send("before_compact", prepareData())).rejects.toThrow(/over the 32000 limit/);
  });

  test("a summary from an earlier hook is left alone (local route already chosen)", async () => {
    const out = await send("before_compact", prepareData({ summary: "from an earlier hook" }));
    expect(out.summary).toBe("from an earlier hook");
    expect(out.prompt).toBeUndefined();
  });
});

describe("after_compact", () => {
  test("normalises line endings, fences and tags; an empty summary is an error", async () => {
    const out = await send("after_compact", {
      summary: "```markdown\r\n## Goal\r\nShip it.\r\n\r\n\r\n\r\nDone.\r\n```",
      state: null,
    });
    expect(out.summary).toBe("## Goal\nShip it.\n\nDone.");
    const tagged = await send("after_compact", { summary: "<summary>\nnotes\n</summary>", state: { a: 1 } });
    expect(tagged).toEqual({ summary: "notes", state: { a: 1 } });
    await expect(send("after_compact", { summary: "```\n\n```", state: null })).rejects.toThrow(/empty/);
  });
});

describe("before_compact_commit", () => {
  /** before_compact on history[1..cut] (the span is in hand there), then the commit with the state it returned. */
  async function commitAfterPrepare(history: History, cut: number, candidate: Message[]) {
    const prepared = await send("before_compact", {
      messages: history.slice(1, cut),
      cut,
      state: { by: "i-compact", version: 1, keep_recent: 4, images: "keep" },
      model: { name: "m", context_window: 100_000 },
      policy: { trigger_ratio: 0.85, rearm_ratio: 0.7 },
      workspace,
    });
    const data = { candidate, summary: "…", cut, state: prepared.state, workspace };
    return { prepared, out: await send("before_compact_commit", data) };
  }

  test("lists the files used and re-attaches the most recent ones within the bound", async () => {
    mkdirSync(join(workspace, "src"), { recursive: true });
    for (let i = 0; i < 5; i++)
      writeFileSync(join(workspace, "src", `file-${i}.ts`), `export const v${i} = ${i};\n`);
    writeFileSync(join(workspace, "src", "file-9.ts"), "still visible in the suffix\n");
    const history = syntheticHistory({
      turns: 5,
      path: (t) => (t === 4 ? "../outside.txt" : `src/file-${t}.ts`),
    });
    const suffixRead: Message[] = [
      { role: "user", content: "again" },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ id: "s1", name: "read", arguments: '{"path":"src/file-3.ts"}' }],
      },
      { role: "tool", tool_call_id: "s1", content: "export const v3 = 3;" },
      { role: "assistant", content: "ok" },
    ];
    const candidate: Message[] = [
      history[0] as Message,
      { role: "user", content: "[Context summary] …", meta: { summary: true, untrusted: true } },
      ...suffixRead,
    ];
    const { prepared, out } = await commitAfterPrepare(history, history.length, candidate);
    // The plan's state survives; the files of the span ride along with it.
    expect(prepared.state).toMatchObject({ by: "i-compact", keep_recent: 4 });
    expect((prepared.state as { touched_files: { files: unknown[] } }).touched_files.files).toHaveLength(5);
    const next = out.candidate as Message[];
    // The suffix is untouched at the end; before it, the span's user messages restored in their own words.
    expect(next.slice(-suffixRead.length)).toEqual(suffixRead);
    const restored = next.slice(2, -suffixRead.length);
    expect(restored.map((m) => textOf(m))).toEqual(
      [0, 1, 2, 3, 4].map(
        (t) =>
          `[Restored after compaction: an earlier message of the user, quoted exactly]turn ${t}: please look at ${t === 4 ? "../outside.txt" : `src/file-${t}.ts`}`,
      ),
    );
    const text = textOf(next[1]);
    for (let i = 0; i < 4; i++) expect(text).toContain(`- src/file-${i}.ts (read)`);
    expect(text).toContain("- ../outside.txt (read)");
    // Most recent first, skipping the file outside the workspace and the one still in the suffix.
    expect(text).toContain("[Current content of src/file-2.ts");
    expect(text).toContain("export const v1 = 1;");
    expect(text).toContain("export const v0 = 0;");
    expect(text).not.toContain("[Current content of src/file-3.ts");
    expect(text).not.toContain("[Current content of ../outside.txt");
  });

  test("only the span before the cut counts: files of the recent suffix are not listed", async () => {
    const history = syntheticHistory({ turns: 3, path: (t) => `src/only-${t}.ts` });
    const candidate: Message[] = [
      history[0] as Message,
      { role: "user", content: "s", meta: { summary: true } },
      ...history.slice(9),
    ];
    const { out } = await commitAfterPrepare(history, 9, candidate);
    const text = textOf((out.candidate as Message[])[1]);
    expect(text).toContain("- src/only-0.ts (read)");
    expect(text).toContain("- src/only-1.ts (read)");
    expect(text).not.toContain("src/only-2.ts");
  });

  test("attached content stays within 8 KiB in total", async () => {
    writeFileSync(join(workspace, "big.txt"), "b".repeat(50_000));
    const history = syntheticHistory({ turns: 1, path: () => "big.txt" });
    const candidate: Message[] = [
      history[0] as Message,
      { role: "user", content: "s", meta: { summary: true } },
    ];
    const { out } = await commitAfterPrepare(history, history.length, candidate);
    const text = textOf((out.candidate as Message[])[1]);
    expect(text.length).toBeLessThan(8 * 1024 + 400);
    expect(text).toContain("more bytes; read the file for the rest");
  });

  test("the local route (a summary from an earlier hook) still carries the files", async () => {
    const history = syntheticHistory({ turns: 2, path: (t) => `notes-${t}.md` });
    const prepared = await send("before_compact", {
      messages: history.slice(1),
      cut: history.length,
      state: null,
      summary: "earlier",
      workspace,
    });
    expect(prepared.summary).toBe("earlier");
    expect(prepared.state).toEqual({
      touched_files: {
        files: [
          { path: "notes-0.md", actions: ["read"] },
          { path: "notes-1.md", actions: ["read"] },
        ],
        more: 0,
      },
      user_messages: ["turn 0: please look at notes-0.md", "turn 1: please look at notes-1.md"],
    });
  });

  test("without files in the state nothing is added; a malformed record is an error", async () => {
    const history = syntheticHistory({ turns: 1 });
    const candidate: Message[] = [
      history[0] as Message,
      { role: "user", content: "s", meta: { summary: true } },
    ];
    const plain = await send("before_compact_commit", { candidate, state: null, workspace });
    expect(plain.candidate).toEqual(candidate);
    await expect(
      send("before_compact_commit", { candidate, state: { touched_files: { files: "x" } }, workspace }),
    ).rejects.toThrow(/state.touched_files is malformed/);
  });

  test("the state carries at most the 500 most recent files; the rest are counted", async () => {
    const history = syntheticHistory({ turns: 520, toolChars: 10, path: (t) => `f/${t}.ts` });
    const prepared = await send("before_compact", {
      messages: history.slice(1),
      cut: history.length,
      state: null,
      summary: "s",
      workspace,
    });
    const touched = (prepared.state as { touched_files: { files: { path: string }[]; more: number } })
      .touched_files;
    expect(touched.files).toHaveLength(500);
    expect(touched.files[0]?.path).toBe("f/20.ts");
    expect(touched.more).toBe(20);
    const candidate: Message[] = [
      history[0] as Message,
      { role: "user", content: "s", meta: { summary: true } },
    ];
    const out = await send("before_compact_commit", { candidate, state: prepared.state, workspace });
    expect(textOf((out.candidate as Message[])[1])).toContain("- … and 480 more");
  });

  test("malformed messages are refused with the index and field", async () => {
    await expect(
      send("before_compact", { messages: [{ role: "user", content: 3 }], cut: 2, state: null, workspace }),
    ).rejects.toThrow(/before_compact: data\.messages\[0\]: field content/);
  });
});
