// The reply read without the schema must be a subset of what the schema accepts, read as the same value:
// every message it takes, Reply takes too, and equal; what it declines is left to Reply.
import { describe, expect, test } from "bun:test";
import { plainOkReply, Reply } from "../../src/contract/protocol.ts";

const lines = [
  '{"id":0,"data":{}}',
  '{"id":7,"data":{"budget":{"ratio":0.5},"tools":[{"name":"read"}],"system":"s"}}',
  '{"data":{"x":1},"id":3}',
  '{"id":-0,"data":{"a":null}}',
  '{"id":1.5,"data":{}}',
  '{"id":-1,"data":{}}',
  '{"id":9007199254740992,"data":{}}',
  '{"id":"1","data":{}}',
  '{"id":1,"data":[]}',
  '{"id":1,"data":null}',
  '{"id":1,"data":"text"}',
  '{"id":1,"data":{},"extra":true}',
  '{"id":1,"error":"it broke"}',
  '{"id":1,"data":{"__proto__":{"polluted":true},"a":1}}',
  '{"id":1}',
  "[1,2]",
  "null",
  "3",
];

describe("plainOkReply", () => {
  test("takes the plain form and only values the schema takes as the same", () => {
    let taken = 0;
    for (const line of lines) {
      const fast = plainOkReply(JSON.parse(line));
      if (fast === undefined) continue;
      taken++;
      const slow = Reply.safeParse(JSON.parse(line));
      expect(slow.success).toBe(true);
      expect(fast).toEqual(slow.data as typeof fast);
    }
    // The first four lines are the plain form; nothing else passes.
    expect(taken).toBe(4);
  });

  test("declines what it cannot read as the schema would, leaving it to Reply", () => {
    for (const line of lines.slice(4)) expect(plainOkReply(JSON.parse(line))).toBeUndefined();
    expect(plainOkReply({ id: 1, data: Object.create(null) })).toBeUndefined();
    expect(plainOkReply({ id: Number.NaN, data: {} })).toBeUndefined();
  });
});
