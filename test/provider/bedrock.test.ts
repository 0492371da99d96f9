// The Bedrock provider against the mock's Converse stream: requests SigV4-signed with the test's secret and
// verified by the mock's own implementation, replies in real AWS event-stream frames, the credential chain
// (environment, session token, profiles in ~/.aws files), Claude's signed reasoning across a tool turn,
// cache points, and the failures in Bedrock's own words.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { History } from "../../src/contract/history.ts";
import { resolveAwsCredentials } from "../../src/provider/bedrock/aws-credentials.ts";
import { createProvider } from "../../src/provider/index.ts";
import type { ProviderError } from "../../src/provider/types.ts";
import { type MockScriptSource, type MockServer, startMockServer } from "../fixtures/mock-server/index.ts";
import type { MockAwsIdentity } from "../fixtures/mock-server/sigv4-check.ts";
import { collect, rejection } from "./helpers.ts";

const ID: MockAwsIdentity = {
  accessKeyId: "AKIDEXAMPLETEST0001",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
};
const MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const HISTORY: History = [
  { role: "system", content: "You are a test." },
  { role: "user", content: "Say hello." },
];
const ENV = {
  AWS_ACCESS_KEY_ID: ID.accessKeyId,
  AWS_SECRET_ACCESS_KEY: ID.secretAccessKey,
  AWS_REGION: "us-west-2",
  HOME: "/nonexistent",
};

const open: MockServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function mock(
  script: MockScriptSource,
  aws: Partial<{ identity: MockAwsIdentity; clockSkewMs: number }> = {},
) {
  const s = await startMockServer({ script, aws: { identity: ID, region: "us-west-2", ...aws } });
  open.push(s);
  return s;
}

function bedrock(server: MockServer, env: Record<string, string> = ENV) {
  return createProvider({
    provider: "bedrock",
    apiKey: "cloud-credentials",
    baseUrl: server.url,
    env,
    maxRetries: 2,
    retryBaseMs: 1,
  });
}

const req = (extra = {}) => ({ model: MODEL, messages: HISTORY, tools: [], ...extra });

describe("bedrock", () => {
  test("a signed Converse stream: text and usage from real event-stream frames", async () => {
    const server = await mock([
      { text: "Hello from Bedrock.", usage: { input_tokens: 50, output_tokens: 6 }, cached_tokens: 20 },
    ]);
    const { res, events } = await collect(bedrock(server), req());
    expect(res.message.content).toBe("Hello from Bedrock.");
    expect(events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(2);
    expect(res.usage).toEqual({ input_tokens: 50, output_tokens: 6, cache_read_tokens: 20 });
    const rec = server.requests[0];
    expect(rec?.path).toBe("/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream");
    expect(rec?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLETEST0001\/\d{8}\/us-west-2\/bedrock\/aws4_request/,
    );
    const body = rec?.body as Record<string, unknown>;
    expect(body.system).toEqual([{ text: "You are a test." }]);
    expect(body.messages).toEqual([{ role: "user", content: [{ text: "Say hello." }] }]);
  });

  test("a wrong secret fails the mock's signature check: one auth line naming the AWS credentials", async () => {
    const server = await mock([{ text: "never" }]);
    const err = (await rejection(
      bedrock(server, { ...ENV, AWS_SECRET_ACCESS_KEY: "not-the-secret-0000000000000000" }).stream(req()),
    )) as ProviderError;
    expect(err.kind).toBe("auth");
    expect(err.message).toMatch(
      /^bedrock model "us\.anthropic\.claude-sonnet-4-5-20250929-v1:0": HTTP 403: The request signature we calculated does not match/,
    );
    expect(err.message).toContain("AWS_ACCESS_KEY_ID");
    expect(err.message).not.toContain("not-the-secret");
  });

  test("a session token is sent and required; an expired one says so", async () => {
    const identity = { ...ID, sessionToken: "FwoGZXIvYXdzEXAMPLETOKEN" };
    const server = await mock([{ text: "with token" }, { error: "auth" }], { identity });
    const p = bedrock(server, { ...ENV, AWS_SESSION_TOKEN: identity.sessionToken });
    expect((await p.stream(req())).message.content).toBe("with token");
    expect(server.requests[0]?.headers["x-amz-security-token"]).toBe(identity.sessionToken);
    const err = (await rejection(p.stream(req()))) as ProviderError;
    expect(err.kind).toBe("auth");
    expect(err.message).toContain("The security token included in the request is expired");
    expect(err.message).toContain("session token has not expired");
    const without = (await rejection(bedrock(server).stream(req()))) as ProviderError;
    expect(without.message).toContain("The security token included in the request is invalid");
  });

  test("a clock 10 minutes off: SigV4's skew error, with the fix", async () => {
    const server = await mock([{ text: "never" }], { clockSkewMs: 10 * 60_000 });
    const err = (await rejection(bedrock(server).stream(req()))) as ProviderError;
    expect(err.kind).toBe("auth");
    expect(err.message).toContain("Signature expired");
    expect(err.message).toContain("this machine's clock is off");
  });

  test("profiles: AWS_PROFILE in ~/.aws/credentials, region from ~/.aws/config; unknown and SSO profiles are one line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "i-aws-"));
    try {
      const credentials = join(dir, "credentials");
      const config = join(dir, "config");
      writeFileSync(
        credentials,
        `[default]\naws_access_key_id = AKIDOTHER\naws_secret_access_key = other\n\n[work]\naws_access_key_id = ${ID.accessKeyId}\naws_secret_access_key = ${ID.secretAccessKey}\n`,
      );
      writeFileSync(
        config,
        "[profile work]\nregion = us-west-2\n\n[profile sso]\nsso_start_url = https://example.awsapps.com/start\nsso_region = us-east-1\nregion = us-east-1\n",
      );
      const files = { AWS_SHARED_CREDENTIALS_FILE: credentials, AWS_CONFIG_FILE: config, HOME: dir };
      const server = await mock([{ text: "from a profile" }]);
      const res = await bedrock(server, { ...files, AWS_PROFILE: "work" }).stream(req());
      expect(res.message.content).toBe("from a profile");
      expect(resolveAwsCredentials({ ...files, AWS_PROFILE: "work" }).source).toBe(`${credentials} [work]`);
      expect(() => resolveAwsCredentials({ ...files, AWS_PROFILE: "nope", AWS_REGION: "us-east-1" })).toThrow(
        /^bedrock: AWS profile "nope" does not exist in .*credentials or .*config; check AWS_PROFILE or config.json bedrock.profile$/,
      );
      expect(() => resolveAwsCredentials({ ...files, AWS_PROFILE: "sso" })).toThrow(
        /profile "sso" uses SSO, which i does not support yet; run `aws configure export-credentials --profile sso --format env`/,
      );
      expect(() => resolveAwsCredentials({ HOME: dir })).toThrow(/^bedrock: no AWS region: set AWS_REGION/);
      expect(() => resolveAwsCredentials({ HOME: dir, AWS_REGION: "us-east-1" })).toThrow(
        /^bedrock: no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a tool turn with Claude's thinking: signed reasoning back first, results paired, cache points placed", async () => {
    const server = await mock([
      {
        reasoning: "Read both.",
        tool_calls: [
          { name: "read", arguments: { path: "a" }, id: "tu_1" },
          { name: "read", arguments: {}, id: "tu_2" },
        ],
      },
      { text: "Done.", reasoning: "All read." },
    ]);
    const tools = [
      {
        name: "read",
        description: "read",
        input_schema: { type: "object", properties: { path: { type: "string" } } },
      },
    ];
    const p = bedrock(server);
    const first = await p.stream(req({ tools, thinking_budget: 2048 }));
    expect(first.stop).toBe("tool_calls");
    expect(first.message.meta?.reasoning).toBe("Read both.");
    expect(first.message.tool_calls?.map((c) => [c.id, c.arguments])).toEqual([
      ["tu_1", '{"path":"a"}'],
      ["tu_2", "{}"],
    ]);
    const history: History = [
      ...HISTORY,
      first.message,
      { role: "tool", tool_call_id: "tu_1", content: "A" },
      { role: "tool", tool_call_id: "tu_2", content: "", meta: { is_error: true } },
    ];
    const second = await p.stream(
      req({ messages: history, tools, thinking_budget: 2048, hints: { cache_breakpoints: [0, 4] } }),
    );
    expect(second.message.content).toBe("Done.");
    const body = server.requests[1]?.body as {
      system: unknown[];
      messages: { content: Record<string, unknown>[] }[];
      additionalModelRequestFields: unknown;
      toolConfig: unknown;
    };
    expect(body.system).toEqual([{ text: "You are a test." }, { cachePoint: { type: "default" } }]);
    expect(body.messages[1]?.content[0]).toHaveProperty("reasoningContent.reasoningText.text", "Read both.");
    expect(body.messages[2]?.content).toEqual([
      { toolResult: { toolUseId: "tu_1", content: [{ text: "A" }] } },
      { toolResult: { toolUseId: "tu_2", content: [{ text: "(no output)" }], status: "error" } },
      { cachePoint: { type: "default" } },
    ]);
    expect(body.additionalModelRequestFields).toEqual({ thinking: { type: "enabled", budget_tokens: 2048 } });
    expect(body.toolConfig).toEqual({
      tools: [
        { toolSpec: { name: "read", description: "read", inputSchema: { json: tools[0]?.input_schema } } },
      ],
    });
  });

  test("overflow, 429 with retry-after, a region without the model", async () => {
    const overflow = await mock([{ error: "overflow" }]);
    const o = (await rejection(bedrock(overflow).stream(req()))) as ProviderError;
    expect(o.kind).toBe("context_overflow");
    expect(o.message).toContain("Input is too long for requested model.");
    const limited = await mock([
      { error: "rate_limit", retry_after: 0.01 },
      { error: "server" },
      { text: "ok" },
    ]);
    const { res, events } = await collect(bedrock(limited), req());
    expect(res.message.content).toBe("ok");
    expect(events.filter((e) => e.type === "retry").map((e) => e.type === "retry" && e.reason)).toEqual([
      expect.stringContaining("HTTP 429: Too many requests"),
      expect.stringContaining("HTTP 503: Bedrock is unable to process your request."),
    ]);
    const missing = await mock([{ error: "not_found" }]);
    const m = (await rejection(bedrock(missing).stream(req()))) as ProviderError;
    expect(m.message).toMatch(
      /The provided model identifier is invalid; check the model id and that this region offers it \(AWS_REGION\)/,
    );
  });

  test("a malformed frame, an exception frame, a cut stream and a guardrail stop", async () => {
    const corrupt = await mock([
      { text: "bad", corrupt_frame: true },
      { text: "bad", corrupt_frame: true },
      { text: "bad", corrupt_frame: true },
    ]);
    const c = (await rejection(bedrock(corrupt).stream(req()))) as ProviderError;
    expect(c.message).toMatch(
      /^bedrock model "[^"]+": malformed event-stream frame: .*; gave up after 2 retries/,
    );
    const exception = await mock([{ text: "x", stream_error: "overflow" }]);
    const e = (await rejection(bedrock(exception).stream(req()))) as ProviderError;
    expect(e.kind).toBe("context_overflow");
    expect(e.message).toContain("validationException in stream: Input is too long");
    const cut = await mock([{ text: "half", drop: true }, { text: "whole" }]);
    expect((await bedrock(cut).stream(req())).message.content).toBe("whole");
    const guard = await mock([{ text: "no", finish_reason: "guardrail_intervened" }]);
    const g = (await rejection(bedrock(guard).stream(req()))) as ProviderError;
    expect(g.kind).toBe("bad_request");
    expect(g.message).toContain("stopped (guardrail_intervened) by a guardrail or the content filter");
  });

  test("the endpoint comes from AWS_ENDPOINT_URL_BEDROCK_RUNTIME when no --base-url is given", async () => {
    const server = await mock([{ text: "via env endpoint" }]);
    const p = createProvider({
      provider: "bedrock",
      apiKey: "cloud-credentials",
      env: { ...ENV, AWS_ENDPOINT_URL_BEDROCK_RUNTIME: server.url },
      maxRetries: 0,
    });
    expect((await p.stream(req())).message.content).toBe("via env endpoint");
  });
});
