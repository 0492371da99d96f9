// Parsing a reply that echoes a large message array the host sent: the result must always equal
// JSON.parse of the line (or be left to it); the placeholder is used only where it is certainly a whole
// top-level field.
import { afterAll, describe, expect, test } from "bun:test";
import type { History } from "../../src/contract/history.ts";
import { parseEchoReply } from "../../src/worker/decode-reply.ts";
import { ECHO_MIN_BYTES, encodeRequestBytes, type SentArray } from "../../src/worker/encode-request.ts";
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
  encodeRequestBytes({ id: 1, event: "budget", workspace: "/w", data }, sent);
  return sent;
}

/** What the host makes of a reply line: the shortcut, or JSON.parse of the decoded line. */
function parseReplyLine(line: string, sent: readonly SentArray[]): unknown {
  const bytes = Buffer.from(line);
  return parseEchoReply(bytes, sent) ?? JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
}

describe("parseReplyLine", () => {
  const history = bigHistory();
  const sent = sentFor({ history, model: { name: "m" } });

  test("large arrays are remembered when sent; small ones are not", () => {
    expect(sent).toHaveLength(1);
    expect(sent[0]?.bytes.length).toBeGreaterThanOrEqual(ECHO_MIN_BYTES);
    expect(sentFor({ history: history.slice(0, 3) })).toEqual([]);
  });

  test("an echo verbatim: equal to JSON.parse, the sent messages shared, the array new", () => {
    const line = JSON.stringify({ id: 1, data: { model: { name: "m" }, history, budget: { total: 5 } } });
    const out = parseEchoReply(Buffer.from(line), sent) as { data: { history: History } };
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
    const text = Buffer.from(sent[0]?.bytes as Uint8Array).toString("utf8");
    for (const line of [
      `{"id":1,"data":{"history":${text}}`,
      `{"id":1,"data":{"history":${text},}}`,
      `{"id":1,"data":{${text}:1}}`,
      `{"id":1,"data":[${text}]`,
      // A byte-order mark right after the echo is a character there, not one a decoder may drop.
      `{"id":1,"data":{"history":${text}\ufeff}}`,
    ])
      expect(() => parseReplyLine(line, sent)).toThrow(SyntaxError);
  });

  test("bad UTF-8 around an echo is left to the plain path (which reports it)", () => {
    const echo = Buffer.from(sent[0]?.bytes as Uint8Array);
    const bad = Buffer.concat([
      Buffer.from('{"id":1,"data":{"x":"'),
      Buffer.from([0xc3]),
      Buffer.from('","history":'),
      echo,
      Buffer.from("}}"),
    ]);
    expect(parseEchoReply(bad, sent)).toBeUndefined();
    const ok = Buffer.concat([Buffer.from('{"id":1,"data":{"x":"ü","history":'), echo, Buffer.from("}}")]);
    expect(parseEchoReply(ok, sent)).toEqual({ id: 1, data: { x: "ü", history } });
  });

  test("arrays from several requests in flight", () => {
    const other = syntheticHistory({ turns: 80, toolChars: 1500 });
    const both = [...sentFor({ messages: other }), ...sent];
    const line = JSON.stringify({ id: 2, data: { messages: other, history, cut: 3 } });
    const out = parseEchoReply(Buffer.from(line), both) as { data: { messages: History; history: History } };
    expect(out).toEqual(JSON.parse(line));
    // Both echoes were taken: their messages are the ones sent.
    expect(out.data.messages[3]).toBe(other[3] as History[number]);
    expect(out.data.history[3]).toBe(history[3] as History[number]);
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
