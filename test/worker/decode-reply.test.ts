// Parsing a reply that echoes a large message array the host sent: the result must always equal
// JSON.parse of the line; the placeholder is used only where it is certainly a whole top-level field.
import { afterAll, describe, expect, test } from "bun:test";
import type { History } from "../../src/contract/history.ts";
import { parseReplyLine } from "../../src/worker/decode-reply.ts";
import { ECHO_MIN_CHARS, encodeRequest, type SentArray } from "../../src/worker/encode-request.ts";
import { WorkerHost } from "../../src/worker/host.ts";
import { syntheticHistory } from "../compaction/helpers.ts";
import { BUDGET_REPLY, BUN, ECHO, manifestOf, TempDirs } from "./helpers.ts";

/** A history well over the size whose echo is recognised, with awkward characters in it. */
function bigHistory(): History {
  const h = syntheticHistory({ turns: 60, toolChars: 2000 });
  h.push({ role: "user", content: 'ünï "quoted" \\ \n\t \u2028 🧪 \ud800' });
  return h;
}

/** Encode a request carrying `data`, returning what the host would remember of it. */
function sentFor(data: Record<string, unknown>): SentArray[] {
  const sent: SentArray[] = [];
  encodeRequest({ id: 1, event: "budget", workspace: "/w", data }, sent);
  return sent;
}

describe("parseReplyLine", () => {
  const history = bigHistory();
  const sent = sentFor({ history, model: { name: "m" } });

  test("large arrays are remembered when sent; small ones are not", () => {
    expect(sent).toHaveLength(1);
    expect(sent[0]?.text.length).toBeGreaterThanOrEqual(ECHO_MIN_CHARS);
    expect(sentFor({ history: history.slice(0, 3) })).toEqual([]);
  });

  test("an echo verbatim: equal to JSON.parse, the sent messages shared, the array new", () => {
    const line = JSON.stringify({ id: 1, data: { model: { name: "m" }, history, budget: { total: 5 } } });
    const out = parseReplyLine(line, sent) as { data: { history: History } };
    expect(out).toEqual(JSON.parse(line));
    expect(out.data.history).not.toBe(history);
    expect(out.data.history[5]).toBe(history[5] as History[number]);
  });

  test("anything but a whole top-level field of data is parsed from the text", () => {
    const changed = [...history];
    changed[3] = { role: "user", content: "edited by the worker" };
    const lines = [
      // One message changed: the text is not found.
      JSON.stringify({ id: 1, data: { history: changed } }),
      // Nested deeper, inside an array, at the top level of the message, twice.
      JSON.stringify({ id: 1, data: { inner: { history } } }),
      JSON.stringify({ id: 1, data: { list: [history] } }),
      JSON.stringify({ id: 1, history, data: {} }),
      JSON.stringify({ id: 1, data: { history, copy: history } }),
      // Inside a string, escaped.
      JSON.stringify({ id: 1, data: { text: JSON.stringify(history) } }),
      // Under another name is still a whole field: fine either way, it must just be equal.
      JSON.stringify({ id: 1, data: { renamed: history } }),
    ];
    for (const line of lines) expect(parseReplyLine(line, sent)).toEqual(JSON.parse(line));
  });

  test("invalid JSON around an echo still fails as JSON.parse does", () => {
    const text = sent[0]?.text as string;
    for (const line of [
      `{"id":1,"data":{"history":${text}}`,
      `{"id":1,"data":{"history":${text},}}`,
      `{"id":1,"data":{${text}:1}}`,
      `{"id":1,"data":[${text}]`,
    ])
      expect(() => parseReplyLine(line, sent)).toThrow(SyntaxError);
  });

  test("arrays from several requests in flight", () => {
    const other = syntheticHistory({ turns: 80, toolChars: 1500 });
    const both = [...sentFor({ messages: other }), ...sent];
    const line = JSON.stringify({ id: 2, data: { messages: other, history, cut: 3 } });
    expect(parseReplyLine(line, both)).toEqual(JSON.parse(line));
  });
});

describe("through a real worker", () => {
  const temp = new TempDirs();
  const dir = temp.make();
  const host = new WorkerHost(
    manifestOf(["budget"], dir, { budget: { exec: [BUN, ECHO, "--module", "budget"] } }),
    { workspace: dir, configDir: dir },
  );
  afterAll(async () => {
    await host.close();
    temp.cleanup();
  });

  test("a budget hook echoing a large history returns exactly the data it would have parsed", async () => {
    const history = bigHistory();
    const out = await host.runHook("budget", { ...BUDGET_REPLY, history, model: { name: "m" } });
    expect(out).toEqual({ ...BUDGET_REPLY, history, model: { name: "m" }, trace: ["budget:budget"] });
    expect(JSON.stringify(out.history)).toBe(JSON.stringify(history));
    // The echo was recognised (not parsed again): the messages are the ones sent.
    expect((out.history as History)[7]).toBe(history[7] as History[number]);
  });
});
