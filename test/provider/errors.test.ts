import { describe, expect, test } from "bun:test";
import { errorBodyMessage, httpError, looksLikeContextOverflow, redact } from "../../src/provider/errors.ts";

const site = { provider: "openai" as const, model: "some-model", apiKey: "sk-live-abcdefghijklmnop1234" };

describe("context overflow wording", () => {
  const overflow: Record<string, string> = {
    openai: JSON.stringify({
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
        type: "invalid_request_error",
        code: "context_length_exceeded",
      },
    }),
    anthropic: JSON.stringify({
      type: "error",
      error: { type: "invalid_request_error", message: "prompt is too long: 208112 tokens > 200000 maximum" },
    }),
    "anthropic (input + max_tokens)":
      '{"type":"error","error":{"type":"invalid_request_error","message":"input length and `max_tokens` exceed context limit: 190000 + 32000 > 200000, decrease input length or `max_tokens` and try again"}}',
    "llama.cpp": JSON.stringify({
      error: {
        code: 400,
        message: "the request exceeds the available context size, try increasing it",
        type: "exceed_context_size_error",
      },
    }),
    vllm: JSON.stringify({
      object: "error",
      message:
        "This model's maximum context length is 4096 tokens. However, you requested 5120 tokens (4096 in the messages, 1024 in the completion). Please reduce the length of the messages or completion.",
      type: "BadRequestError",
      code: 400,
    }),
    "vllm v1":
      '{"error":{"message":"The decoder prompt (length 5000) is longer than the maximum model length of 4096."}}',
    ollama: '{"error":"the input length exceeds the context length"}',
    "lm studio":
      '{"error":"Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough."}',
    openrouter:
      '{"error":{"message":"This endpoint\'s maximum context length is 163840 tokens. However, you requested about 170000 tokens.","code":400}}',
  };
  for (const [who, body] of Object.entries(overflow)) {
    test(`${who}: a 400 is context_overflow`, () => {
      expect(looksLikeContextOverflow(body)).toBe(true);
      const err = httpError(site, 400, body);
      expect(err.kind).toBe("context_overflow");
      expect(err.retryable).toBe(false);
    });
  }

  test("an Anthropic 413 request_too_large is context_overflow", () => {
    const body =
      '{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}';
    expect(httpError(site, 413, body).kind).toBe("context_overflow");
  });

  test("a server that reports overflow as a 500 is still context_overflow (retrying cannot help)", () => {
    expect(httpError(site, 500, '{"error":"prompt is too long"}').kind).toBe("context_overflow");
  });

  test("other 400s are bad_request", () => {
    const body = '{"error":{"message":"Invalid value for \'temperature\'","type":"invalid_request_error"}}';
    const err = httpError(site, 400, body);
    expect(err.kind).toBe("bad_request");
    expect(err.retryable).toBe(false);
    expect(err.message).toContain("Invalid value for 'temperature'");
  });
});

describe("status classification", () => {
  test.each([
    [401, "auth", false],
    [403, "auth", false],
    [404, "not_found", false],
    [422, "bad_request", false],
    [408, "network", true],
    [429, "rate_limit", true],
    [500, "server", true],
    [502, "server", true],
    [503, "server", true],
    [529, "server", true],
  ] as const)("HTTP %d → %s (retryable: %p)", (status, kind, retryable) => {
    const err = httpError(site, status, '{"error":{"message":"something"}}');
    expect(err.kind).toBe(kind);
    expect(err.retryable).toBe(retryable);
    expect(err.status).toBe(status);
  });

  test("x-should-retry: false vetoes a retry", () => {
    const err = httpError(site, 500, "{}", new Headers({ "x-should-retry": "false" }));
    expect(err.kind).toBe("server");
    expect(err.retryable).toBe(false);
  });

  test("a 429 for an exhausted quota is not retried", () => {
    const body =
      '{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}';
    const err = httpError(site, 429, body);
    expect(err.kind).toBe("rate_limit");
    expect(err.retryable).toBe(false);
  });

  test("the message names provider, model and status and carries the server's text", () => {
    const html = "<html><body><h1>503 Service Unavailable</h1></body></html>";
    const err = httpError(site, 503, html, new Headers({ "retry-after": "2" }));
    expect(err.message).toBe('openai model "some-model": HTTP 503: 503 Service Unavailable');
    expect(err.retryAfterMs).toBe(2000);
  });
});

describe("redaction", () => {
  test("the key we sent never appears, nor other key-shaped tokens", () => {
    const body = `{"error":{"message":"Incorrect API key provided: ${site.apiKey}. Also sk-other-0123456789abcdef and Bearer xyz"}}`;
    const err = httpError(site, 401, body);
    expect(err.message).not.toContain(site.apiKey);
    expect(err.message).not.toContain("sk-other");
    expect(err.message).not.toContain("xyz");
    expect(err.message).toContain("[redacted]");
  });

  test("a key without a known shape is scrubbed too", () => {
    expect(redact("your key plainsecretvalue is wrong", "plainsecretvalue")).toBe(
      "your key [redacted] is wrong",
    );
  });

  test("a key that straddles the 500-character cut leaks no part of itself", () => {
    const key = "plainsecret0123456789ABCDEFGHIJ";
    const body = `{"error":{"message":"${"y".repeat(485)} ${key} rest of the echo"}}`;
    const err = httpError({ ...site, apiKey: key }, 401, body);
    expect(err.message).not.toContain(key.slice(0, 8));
    expect(err.message).toContain("[redacted]");
    // A stream error body gets the same treatment.
    expect(errorBodyMessage(body, key)).not.toContain("plainsec");
  });

  test("long bodies are trimmed", () => {
    expect(errorBodyMessage("x".repeat(5000)).length).toBeLessThanOrEqual(501);
  });
});
