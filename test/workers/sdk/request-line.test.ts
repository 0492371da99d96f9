// A worker parses request lines element by element and writes replies from the received text: the
// results must always equal JSON.parse(line) and JSON.stringify({ id, data }), whatever the line holds
// and whatever the handler does with the messages.
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { MESSAGE_FIELDS } from "../../../src/lib/encode-data.ts";
import { encodeRequest } from "../../../src/worker/encode-request.ts";
import { splitByKeys, splitRequestLine } from "../../../workers/sdk/json-split.ts";
import { defineWorkerModule, type WorkerModule } from "../../../workers/sdk/module.ts";
import {
  encodeReplyLine,
  parseRequestLine,
  receivedText,
  SPLIT_MIN_CHARS,
} from "../../../workers/sdk/request-line.ts";
import { serve } from "../../../workers/sdk/serve.ts";

type Msg = Record<string, unknown>;

const HISTORY_WORKER = join(import.meta.dirname, "..", "..", "fixtures", "workers", "history-worker.ts");

/** Messages full of what a scanner gets wrong: quotes, backslash runs, unicode, nested arrays. */
function awkward(n: number): Msg[] {
  const out: Msg[] = [{ role: "system", content: "sys" }];
  for (let i = 0; i < n; i++) {
    out.push({
      role: "user",
      content: `ask ${i}: "quoted" \\ \\\\" ]}[{ ,: ünï 🧪 \u2028 \u0000 \u001b[31m`,
    });
    out.push({
      role: "assistant",
      content: [{ type: "text", text: `a\\"b\\\\\\"c ${"x".repeat(300)}` }],
      tool_calls: [{ id: `c${i}`, name: "read", arguments: JSON.stringify({ path: `p"${i}\\` }) }],
      meta: { nested: [[1, [2, [3]]], { deep: { deeper: [true, false, null, -1.5, 1e-7, 0] } }] },
    });
    out.push({ role: "tool", tool_call_id: `c${i}`, content: `${"line\n\t".repeat(40)}\\` });
  }
  return out;
}

const big = awkward(200);
const line = encodeRequest({
  id: 3,
  event: "compact_plan",
  workspace: "/w",
  data: { history: big, cut: null },
});

/** The reply JSON.stringify would write. */
const plainReply = (id: number, data: unknown) => `${JSON.stringify({ id, data })}\n`;

function dataOf(l: string): Record<string, unknown> {
  return (parseRequestLine(l) as { data: Record<string, unknown> }).data;
}

describe("splitRequestLine", () => {
  test("splits the message fields of data into the elements' exact texts", () => {
    const fields = splitRequestLine(line, MESSAGE_FIELDS);
    expect(fields).toHaveLength(1);
    const f = fields?.[0];
    expect(f?.key).toBe("history");
    expect(f?.pieces).toEqual(big.map((m) => JSON.stringify(m)));
    expect(line.slice(f?.start, f?.end)).toBe(JSON.stringify(big));
    expect(f?.canonical.every(Boolean)).toBe(true);
  });

  test("marks what JSON.stringify would write differently", () => {
    const pieces = [
      '{"a":1}',
      '{"a": 1}',
      '{"a":"\\/"}',
      '{"a":"\\u0041"}',
      '{"a":"\\u001B"}',
      '{"a":"\\u001b"}',
      '{"a":"\\\\u0041"}',
      '{"a":"\\ud83d\\ude00"}',
      '{"a":1.0}',
      '{"a":-0}',
      '{"a":1e2}',
      '{"1":1,"b":2}',
      '[1,"x",null]',
    ];
    const l = `{"id":1,"event":"e","workspace":"/w","data":{"messages":[${pieces.join(",")}]}}`;
    const f = splitRequestLine(l, MESSAGE_FIELDS)?.[0];
    // Whitespace is not the core's shape: the whole line is left to JSON.parse.
    expect(f).toBeUndefined();
    const tight = l.replace('{"a": 1}', '{"a":2}');
    const g = splitRequestLine(tight, MESSAGE_FIELDS)?.[0];
    expect(g?.pieces).toHaveLength(pieces.length);
    expect(g?.canonical).toEqual([
      true,
      true,
      false,
      false,
      false,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
    for (const [i, p] of (g?.pieces ?? []).entries())
      if (g?.canonical[i]) expect(JSON.stringify(JSON.parse(p))).toBe(p);
  });
});

test("found by their keys, the fields are the ones the walk finds, however long the other fields are", () => {
  const summary = { roles: Array.from({ length: 5000 }, (_, i) => (i % 2 ? "tool" : "assistant")) };
  const tools = [{ name: "read", description: 'reads "files"', input_schema: { type: "object" } }];
  const lines = [
    line,
    encodeRequest({
      id: 4,
      event: "budget",
      workspace: "/w",
      data: { system: "s", tools, history_summary: summary },
    }),
    encodeRequest({
      id: 5,
      event: "before_compact",
      workspace: "/w",
      data: { messages: big.slice(1, 40), cut: 40 },
    }),
  ];
  for (const l of lines) expect(splitByKeys(l, MESSAGE_FIELDS)).toEqual(splitRequestLine(l, MESSAGE_FIELDS));
});

describe("parseRequestLine", () => {
  test("equals JSON.parse; messages frozen, their texts kept", () => {
    const msg = parseRequestLine(line) as { data: { history: Msg[] } };
    expect(msg).toEqual(JSON.parse(line));
    const h = msg.data.history;
    expect(Object.isFrozen(h[2])).toBe(true);
    expect(Object.isFrozen((h[2] as { meta: { nested: unknown[] } }).meta.nested[0])).toBe(true);
    expect(receivedText(h[2] as object)).toBe(JSON.stringify(big[2]));
  });

  test("small requests are parsed plainly, their messages frozen too", () => {
    const small = JSON.stringify({
      id: 1,
      event: "e",
      workspace: "/w",
      data: { messages: [{ role: "user" }] },
    });
    expect(small.length).toBeLessThan(SPLIT_MIN_CHARS);
    const m = dataOf(small).messages as Msg[];
    expect(Object.isFrozen(m[0])).toBe(true);
    expect(receivedText(m[0] as object)).toBeUndefined();
  });

  test("hostile lines parse exactly as JSON.parse does, or fail as it does", () => {
    const pad = "p".repeat(SPLIT_MIN_CHARS);
    const hist = JSON.stringify(big.slice(0, 30));
    const lines = [
      // Two fields, a duplicate data key, a duplicate field, data nested or absent.
      `{"id":1,"event":"e","workspace":"/w","data":{"history":${hist},"messages":${hist},"pad":"${pad}"}}`,
      `{"id":1,"event":"e","workspace":"/w","data":{"history":${hist}},"data":{"pad":"${pad}"}}`,
      `{"id":1,"event":"e","workspace":"/w","data":{"history":${hist},"history":[],"pad":"${pad}"}}`,
      `{"id":1,"event":"e","workspace":"/w","data":{"x":{"history":${hist}},"pad":"${pad}"}}`,
      `{"id":1,"event":"e","workspace":"/w","other":{"history":${hist}},"data":{"pad":"${pad}"}}`,
      // Non-canonical elements, duplicate keys, __proto__, integer keys, non-object elements.
      `{"id":1,"event":"e","workspace":"/w","data":{"messages":[{"a":1,"a":2},{"__proto__":{"x":1}},{"2":1,"1":2},"s",7,null,[],{},{"n":-0},{"n":1.0},{"n":1e400},{"s":"\\/"},{"s":"\\u0041"},{"s":"\\ud800"}],"pad":"${pad}"}}`,
      // A field's key inside a string or ending one (its quote escaped), a nested member of that name first.
      `{"id":1,"event":"e","workspace":"/w","data":{"note":"say \\"history\\":[1] \\\\","history":${hist},"pad":"${pad}"}}`,
      `{"id":1,"event":"e","workspace":"/w","data":{"say\\"history":[1],"history":${hist},"pad":"${pad}"}}`,
      `{"id":1,"event":"e","workspace":"/w","data":{"model":{"tools":[{"name":"x"}]},"tools":${hist},"pad":"${pad}"}}`,
      `{"id":1,"event":"e","workspace":"/w","data":{"history":[{"messages":[1,2]},{"role":"user"}],"messages":${hist},"pad":"${pad}"}}`,
      // A placeholder look-alike, an empty array, whitespace at the end.
      `{"id":1,"event":"e","workspace":"/w","data":{"history":[],"candidate":["i-received-array-0"],"pad":"${pad}"}}`,
      `{"id":1,"event":"e","workspace":"/w","data":{"history":${hist},"pad":"${pad}"}} `,
      // Broken: unterminated string, missing bracket, trailing comma, junk after the line.
      `{"id":1,"event":"e","workspace":"/w","data":{"history":[{"a":"${pad}}]}}`,
      `{"id":1,"event":"e","workspace":"/w","data":{"history":[{"a":"${pad}"}}}`,
      `{"id":1,"event":"e","workspace":"/w","data":{"history":[{"a":"${pad}"},]}}`,
      `{"id":1,"event":"e","workspace":"/w","data":{"history":[{"a":"${pad}"}]}}x`,
      `{"id":1,"event":"e","workspace":"/w","data":{"history":[{"a":"${pad}"}]]}`,
    ];
    for (const l of lines) {
      let expected: unknown;
      try {
        expected = JSON.parse(l);
      } catch {
        expect(() => parseRequestLine(l)).toThrow(SyntaxError);
        continue;
      }
      const got = parseRequestLine(l) as { data: Record<string, unknown> };
      expect(got).toEqual(expected as typeof got);
      // Whatever was remembered, the reply handing the data back is what JSON.stringify writes.
      expect(encodeReplyLine(1, got.data)).toBe(plainReply(1, got.data));
      for (const k of ["messages", "history", "candidate"]) {
        const list = got.data[k];
        if (!Array.isArray(list)) continue;
        for (const m of list)
          if (typeof m === "object" && m !== null && receivedText(m) !== undefined)
            expect(receivedText(m)).toBe(JSON.stringify(m));
      }
    }
  });
});

describe("encodeReplyLine", () => {
  test("equals JSON.stringify however the handler built the reply", () => {
    const data = dataOf(line);
    const h = data.history as Msg[];
    const replies: Record<string, unknown>[] = [
      { ...data, cut: 5 },
      { ...data, history: h.slice(3) },
      { ...data, history: h.filter((_, i) => i % 2 === 0) },
      { ...data, history: h.map((m, i) => (i === 4 ? { ...m, content: "new" } : m)) },
      { ...data, history: [...h, { role: "user", content: "added" }] },
      { ...data, history: [...h, undefined, () => 1] },
      { ...data, messages: h, candidate: [h[1], h[1]] },
      { ...data, history: "not an array" },
      { ...data, history: h, extra: { nested: h.slice(0, 3) } },
      { ...data, history: [new Date(0), ...h.slice(0, 2)] },
      { ...data, history: [{ toJSON: () => "custom" }, ...h.slice(0, 2)] },
    ];
    const sparse = [...h];
    delete sparse[3];
    replies.push({ ...data, history: sparse });
    for (const r of replies) expect(encodeReplyLine(9, r)).toBe(plainReply(9, r));
    const custom = { toJSON: (key: string) => `data under ${key}` };
    expect(encodeReplyLine(9, custom as unknown as Record<string, unknown>)).toBe(plainReply(9, custom));
  });
});

/** Serve `module` and feed it `text` in chunks of `size` bytes; the replies as raw lines. */
async function serveChunked(module: WorkerModule, text: string, size: number): Promise<string[]> {
  const input = new PassThrough();
  const out: string[] = [];
  const done = serve([module], { input, write: (l) => out.push(l), log: () => {} });
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) input.write(bytes.subarray(i, i + size));
  input.end();
  await done;
  for (let i = 0; i < 50 && out.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
  return out;
}

describe("served", () => {
  test("a reply handing the history back is byte for byte JSON.stringify, split across any chunking", async () => {
    const echo = defineWorkerModule({ name: "compact", hooks: { compact_plan: (d) => ({ ...d, cut: 4 }) } });
    const expected = plainReply(3, { ...(JSON.parse(line) as { data: object }).data, cut: 4 });
    // Odd chunk sizes put chunk edges inside escapes, multi-byte characters and backslash runs.
    for (const size of [7, 4093, 65_537])
      expect(await serveChunked(echo, `${line}\n`, size)).toEqual([expected]);
  });

  test("a handler that changes a received message gets an error reply, not a silently lost change", async () => {
    const mutating = defineWorkerModule({
      name: "compact",
      hooks: {
        compact_plan: (d) => {
          (d.history[1] as Msg).content = "changed";
          return d;
        },
      },
    });
    const [reply] = await serveChunked(mutating, `${line}\n`, 1 << 20);
    expect(JSON.parse(reply as string)).toEqual({ id: 3, error: expect.stringContaining("read") });
  });

  test("a handler that returns a different array gets it written as it is", async () => {
    const other = defineWorkerModule({
      name: "compact",
      hooks: {
        compact_plan: (d) => ({ ...d, history: d.history.map((m) => ({ ...m, content: "x" })) }),
      },
    });
    const [reply] = await serveChunked(other, `${line}\n`, 1 << 20);
    const data = (JSON.parse(line) as { data: { history: Msg[] } }).data;
    expect(reply).toBe(
      plainReply(3, { ...data, history: data.history.map((m) => ({ ...m, content: "x" })) }),
    );
  });
});

/** Run the history worker over real pipes; the reply lines, raw, for the requests written in chunks. */
async function overStdio(mode: string, requests: string[], chunk: number): Promise<string[]> {
  const child = spawn(process.execPath, [HISTORY_WORKER, mode], { stdio: ["pipe", "pipe", "inherit"] });
  const out: Buffer[] = [];
  const done = new Promise<void>((resolve) => child.stdout.on("end", resolve));
  child.stdout.on("data", (c: Buffer) => out.push(c));
  for (const r of requests) {
    const bytes = Buffer.from(`${r}\n`);
    for (let i = 0; i < bytes.length; i += chunk) child.stdin.write(bytes.subarray(i, i + chunk));
  }
  child.stdin.end();
  await done;
  return Buffer.concat(out)
    .toString("utf8")
    .split(/(?<=\n)/);
}

test("a handler that swaps an element of the received array in place gets the swap written", async () => {
  const swap = defineWorkerModule({
    name: "compact",
    hooks: {
      compact_plan: (d) => {
        d.history[2] = { role: "user", content: "swapped" };
        return d;
      },
    },
  });
  const [reply] = await serveChunked(swap, `${line}\n`, 1 << 20);
  const data = (JSON.parse(line) as { data: { history: Msg[] } }).data;
  data.history[2] = { role: "user", content: "swapped" };
  expect(reply).toBe(plainReply(3, data));
});

describe("over stdio", () => {
  const ascii = line;
  const wide = encodeRequest({
    id: 4,
    event: "compact_plan",
    workspace: "/wörk",
    data: { note: "ünï 🧪", history: big, cut: null, after: "ü" },
  });
  const expected = (l: string, f: (d: { history: Msg[] }) => object) => {
    const req = JSON.parse(l) as { id: number; data: { history: Msg[] } };
    return plainReply(req.id, f(req.data));
  };

  test("a history handed back whole is written from the request's bytes, exactly", async () => {
    for (const size of [4093, 1 << 20]) {
      const replies = await overStdio("echo", [ascii, wide], size);
      expect(replies).toEqual([
        expected(ascii, (d) => ({ ...d, cut: 1 })),
        expected(wide, (d) => ({ ...d, cut: 1 })),
      ]);
    }
  });

  test("a part of it, or an earlier request's history, is written from text, exactly", async () => {
    expect(await overStdio("slice", [wide], 65_536)).toEqual([
      expected(wide, (d) => ({ ...d, history: d.history.slice(1), cut: 1 })),
    ]);
    const first = JSON.parse(ascii) as { data: { history: Msg[] } };
    expect(await overStdio("stash", [ascii, wide], 65_536)).toEqual([
      expected(ascii, (d) => ({ ...d, cut: 1 })),
      expected(wide, (d) => ({ ...d, history: first.data.history, cut: 1 })),
    ]);
  });
});

test("a message nested deeper than the call stack is frozen and parsed like any other", () => {
  const deep = `${"[".repeat(50_000)}${"]".repeat(50_000)}`;
  const pad = "p".repeat(SPLIT_MIN_CHARS);
  for (const l of [
    `{"id":1,"event":"e","workspace":"/w","data":{"messages":[{"a":${deep}}],"pad":"${pad}"}}`,
    `{"id":1,"event":"e","workspace":"/w","data":{"messages":[{"a":${deep}}]}}`,
  ]) {
    let expected: unknown;
    try {
      expected = JSON.parse(l);
    } catch (err) {
      // The engine's own limit: then it is the same error either way.
      expect(() => parseRequestLine(l)).toThrow((err as Error).constructor as ErrorConstructor);
      continue;
    }
    const got = parseRequestLine(l) as { data: { messages: Msg[] } };
    expect(got.data.messages.length).toBe((expected as typeof got).data.messages.length);
    expect(Object.isFrozen(got.data.messages[0])).toBe(true);
  }
});

test("messages repeated from the last large request are the same frozen values; changed ones are parsed anew", () => {
  const first = parseRequestLine(line) as { data: { history: Msg[] } };
  const changed = big.slice(1);
  changed[5] = { ...(changed[5] as Msg), content: "edited" };
  const next = encodeRequest({
    id: 4,
    event: "before_compact",
    workspace: "/w",
    data: { messages: changed },
  });
  const second = parseRequestLine(next) as { data: { messages: Msg[] } };
  expect(second).toEqual(JSON.parse(next));
  // history[1..] again: the values at offset 1, except the one whose text differs.
  expect(second.data.messages[0]).toBe(first.data.history[1] as Msg);
  expect(second.data.messages[4]).toBe(first.data.history[5] as Msg);
  expect(second.data.messages[5]).not.toBe(first.data.history[6] as Msg);
  expect(second.data.messages[5]?.content).toBe("edited");
  const reply = { ...second.data, summary: "s" };
  expect(encodeReplyLine(4, reply)).toBe(plainReply(4, reply));
});

test("a budget request's tool declarations: split from 8 KB, the same frozen values next time, the reply from their text", () => {
  const tools = Array.from({ length: 40 }, (_, i) => ({
    name: `mcp__s__tool_${i}`,
    description: `does "thing" ${i} \\ ${"d".repeat(200)}`,
    input_schema: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
  }));
  const history = big.slice(0, 3);
  const req = (id: number) =>
    encodeRequest({ id, event: "budget", workspace: "/w", data: { tools, history, state: { armed: true } } });
  const l1 = req(1);
  expect(l1.length).toBeLessThan(SPLIT_MIN_CHARS);
  const first = parseRequestLine(l1) as { data: { tools: Msg[] } };
  expect(first).toEqual(JSON.parse(l1));
  expect(Object.isFrozen(first.data.tools[0])).toBe(true);
  expect(receivedText(first.data.tools[0] as Msg)).toBe(JSON.stringify(tools[0]));
  // A message request in between does not make the tools be parsed again.
  parseRequestLine(line);
  const second = parseRequestLine(req(2)) as { data: { tools: Msg[] } };
  expect(second.data.tools[7]).toBe(first.data.tools[7] as Msg);
  const reply = { ...second.data, budget: { ratio: 0.1 } };
  expect(encodeReplyLine(2, reply)).toBe(plainReply(2, reply));
});
