// Nothing the summariser should see is cut: the previous summary and the conversation go whole; material
// larger than one summary request is summarised in chunks, oldest first, each chunk's summary carried
// into the next request; a cut-off summary is continued; an oversized one has its oldest part condensed, not truncated.
// The built-in compact module, real workers, the mock model.
import { expect, test } from "bun:test";
import { PROMPTS } from "../../src/contract/generated/prompts.ts";
import type { History, Message } from "../../src/contract/history.ts";
import { type RecordedRequest, startMockServer } from "../fixtures/mock-server/index.ts";
import { closedAfterEach, lastOf, makeRig, openAiProvider, syntheticHistory, textOf } from "./helpers.ts";

const t = closedAfterEach();

const bodyText = (req: RecordedRequest | undefined) => JSON.stringify(req?.body ?? {});
const systemOf = (req: RecordedRequest | undefined) =>
  String((req?.body as { messages?: { content: unknown }[] } | undefined)?.messages?.[0]?.content);

test("the previous summary reaches the summariser whole, middle included", async () => {
  t.rig = makeRig({ modules: ["budget", "compact"] });
  t.mock = await startMockServer({ script: [{ text: "## Goal\nnew summary" }] });
  const filler = (k: number) => Array.from({ length: 400 }, (_, i) => `note ${k}.${i}: kept`).join("\n");
  const previous = `${filler(1)}\nMIDDLE-FACT-7f3a\n${filler(2)}`;
  expect(previous.length).toBeGreaterThan(12_000);
  const history: History = syntheticHistory({ turns: 12 });
  history.splice(1, 0, {
    role: "user",
    content: `[Context summary]\n<summary>\n${previous}\n</summary>`,
    meta: { summary: true, untrusted: true },
  });
  t.rig.session.checkpoint(history);
  await t.rig.controller({ provider: openAiProvider(t.mock.url) }).compactNow(history, []);
  expect(t.mock.requests.length).toBe(1);
  const sent = bodyText(t.mock.requests[0]);
  expect(sent).toContain("MIDDLE-FACT-7f3a");
  expect(sent).toContain("note 1.0: kept");
  expect(sent).toContain("note 2.399: kept");
});

test("material larger than one request is summarised in chunks, oldest first, each summary carried on", async () => {
  t.rig = makeRig({ modules: ["budget", "compact"] });
  // Each user message plants a fact; the ideal summariser writes back every fact it is shown.
  const history: History = [{ role: "system", content: "You are a test agent." }];
  for (let t = 0; t < 40; t++) {
    history.push({ role: "user", content: `fact U${String(t).padStart(3, "0")} ${"detail ".repeat(200)}` });
    history.push({ role: "assistant", content: `noted ${t}` });
  }
  const seen: string[][] = [];
  t.mock = await startMockServer({
    script: (req) => {
      const facts = [...new Set(bodyText(req).match(/U\d{3}/g) ?? [])].sort();
      seen.push(facts);
      return { text: `## Critical context\n${facts.join(" ")}` };
    },
  });
  t.rig.session.checkpoint(history);
  const window = { contextWindow: 8_000, maxOutput: 1_000 };
  const out = await t.rig
    .controller({ provider: openAiProvider(t.mock.url), ...window })
    .compactNow(history, []);

  expect(t.mock.requests.length).toBeGreaterThan(2);
  // Every request fit the window, none carried tools.
  for (const q of t.mock.requests) {
    expect(bodyText(q).length / 4).toBeLessThan(window.contextWindow);
    expect((q.body as { tools?: unknown[] }).tools ?? []).toEqual([]);
  }
  // Oldest first: the first chunk starts with U000; each later chunk carries everything before it.
  expect(seen[0]?.[0]).toBe("U000");
  for (let k = 1; k < seen.length; k++) {
    expect(seen[k]?.length).toBeGreaterThan(seen[k - 1]?.length ?? 0);
    for (const f of seen[k - 1] ?? []) expect(seen[k]).toContain(f);
  }
  const summary = textOf(out[1]);
  const cut = (lastOf(t.rig.events, "compaction") as { cut: number }).cut;
  const compacted = history.slice(1, cut).flatMap((m) => textOf(m).match(/U\d{3}/g) ?? []);
  for (const f of compacted) expect(summary).toContain(f);
  expect(t.rig.events.some((e) => e.type === "notice" && e.message.includes("summarising it in"))).toBe(true);
});

test("a summary over the cap has its oldest part condensed, not cut", async () => {
  t.rig = makeRig({ modules: ["budget", "compact"] });
  // About 12,400 tokens: over this compaction's cap, a third of the 24k window (8,000; the room below the
  // trigger after the short recent suffix is larger).
  const long = `## Critical context\n${Array.from({ length: 5000 }, (_, i) => `item ${i}`).join("\n")}`;
  t.mock = await startMockServer({
    script: (req) =>
      systemOf(req).includes("You are condensing")
        ? { text: "## Critical context\nitems 0-3999, all checked" }
        : { text: long },
  });
  const history = syntheticHistory({ turns: 12, toolChars: 4_000 });
  t.rig.session.checkpoint(history);
  const out = await t.rig
    .controller({ provider: openAiProvider(t.mock.url), contextWindow: 24_000, maxOutput: 8_000 })
    .compactNow(history, []);
  expect(t.mock.requests.length).toBe(2);
  // The condense request carries the oldest part whole; the newest lines come back as written.
  expect(bodyText(t.mock.requests[1])).toContain("item 0\\n");
  expect(bodyText(t.mock.requests[1])).not.toContain("item 4999");
  expect(systemOf(t.mock.requests[1])).toMatch(/at most \d+ tokens/);
  expect(textOf(out[1])).toContain("items 0-3999, all checked\nitem ");
  expect(textOf(out[1])).toContain("item 4999");
  expect(
    t.rig.events.some((e) => e.type === "notice" && e.message.includes("asking the model to condense")),
  ).toBe(true);
});

test("a summary cut off by the output limit is continued and joined", async () => {
  t.rig = makeRig({ modules: ["budget", "compact"] });
  t.mock = await startMockServer({
    script: [{ text: "## Goal\nfirst half, ", stop: "length" }, { text: "second half." }],
  });
  const history = syntheticHistory({ turns: 12 });
  t.rig.session.checkpoint(history);
  const out = await t.rig.controller({ provider: openAiProvider(t.mock.url) }).compactNow(history, []);
  expect(t.mock.requests.length).toBe(2);
  const second = (t.mock.requests[1]?.body as { messages?: Message[] } | undefined)?.messages ?? [];
  expect(second.at(-2)).toMatchObject({ role: "assistant", content: "## Goal\nfirst half, " });
  expect(second.at(-1)).toMatchObject({ role: "user", content: PROMPTS["continue-summary"] });
  expect(textOf(out[1])).toContain("first half, second half.");
});

test("a summary that fits one request is budget-checked once before it is sent", async () => {
  t.rig = makeRig({ modules: ["budget", "compact"] });
  t.mock = await startMockServer({ script: [{ text: "## Goal\nsummary" }] });
  const host = t.rig.host;
  const read = host.runHook.bind(host);
  const budgetCalls: number[] = [];
  host.runHook = (event, data, opts) => {
    if (event === "budget") budgetCalls.push((data.history as unknown[]).length);
    return read(event, data, opts);
  };
  const history = syntheticHistory({ turns: 12 });
  t.rig.session.checkpoint(history);
  const out = await t.rig.controller({ provider: openAiProvider(t.mock.url) }).compactNow(history, []);
  expect(t.mock.requests.length).toBe(1);
  // The baseline, the summary request (system + transcript) once, the draft (what the commit may add to
  // it: the restored messages), the candidate.
  const draft = out.filter((m) => m.meta?.restored !== true).length;
  expect(draft).toBeLessThan(out.length);
  expect(budgetCalls).toEqual([history.length, 2, draft, out.length]);
});
