// The words harnesses match in our error lines (Harbor's retry classifier among them): a rate limit, an
// overloaded provider and a missing or refused key always say so in the same words.
import { expect, test } from "bun:test";
import { locateApiKey } from "../../src/provider/credentials.ts";
import {
  NOT_LOGGED_IN_PHRASE,
  OVERLOADED_PHRASE,
  RATE_LIMIT_PHRASE,
} from "../../src/provider/error-phrases.ts";
import { httpError, streamError } from "../../src/provider/errors.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";

const site = { provider: "anthropic" as const, model: "m", apiKey: "sk-live-abcdefghijklmnop1234" };

test("the phrases are these words (a harness's classifier depends on them)", () => {
  expect([RATE_LIMIT_PHRASE, OVERLOADED_PHRASE, NOT_LOGGED_IN_PHRASE]).toEqual([
    "rate limit reached",
    "the provider is overloaded",
    "not logged in",
  ]);
});

test("a 429, whatever the body says, reads 'rate limit reached'", () => {
  for (const body of [
    '{"error":{"message":"Too many requests"}}',
    "",
    '{"error":{"type":"rate_limit_error"}}',
  ])
    expect(httpError(site, 429, body).message).toContain(RATE_LIMIT_PHRASE);
  expect(
    streamError(site, '{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}').message,
  ).toContain(RATE_LIMIT_PHRASE);
});

test("a 529 or an overloaded_error, in a response or in the stream, reads 'the provider is overloaded'", () => {
  expect(
    httpError(site, 529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')
      .message,
  ).toContain(OVERLOADED_PHRASE);
  expect(
    streamError(site, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}').message,
  ).toContain(OVERLOADED_PHRASE);
  expect(httpError(site, 500, '{"error":{"message":"boom"}}').message).not.toContain(OVERLOADED_PHRASE);
});

test("a refused key and no key at all read 'not logged in'", () => {
  expect(httpError(site, 401, '{"error":{"message":"invalid x-api-key"}}').message).toContain(
    NOT_LOGGED_IN_PHRASE,
  );
  const dir = tempDir("i-nokey-");
  try {
    expect(() => locateApiKey("anthropic", dir, {})).toThrow(
      /^not logged in: no API key for provider "anthropic"/,
    );
  } finally {
    removeDir(dir);
  }
});
