// The Vertex AI provider against the mock: a service-account JSON whose RS256 JWT (signed with WebCrypto)
// the mock verifies with the test's public key before it issues a token; the token reused, and replaced
// before it expires; gcloud's authorized_user file; Gemini and Claude endpoint shapes under a project and
// location; and the failures, each one line naming vertex.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createProvider } from "../../src/provider/index.ts";
import type { ProviderError } from "../../src/provider/types.ts";
import { resolveGoogleCredentials } from "../../src/provider/vertex/google-credentials.ts";
import type { MockGoogleAuth } from "../fixtures/mock-server/google-auth.ts";
import { type MockScriptSource, type MockServer, startMockServer } from "../fixtures/mock-server/index.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";
import { rejection } from "./helpers.ts";

const EMAIL = "agent@test-project.iam.gserviceaccount.com";
const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PUBLIC = publicKey.export({ type: "spki", format: "pem" }).toString();
const PRIVATE = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const other = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .privateKey.export({ type: "pkcs8", format: "pem" })
  .toString();

let dir: string;
beforeAll(() => {
  dir = tempDir("i-vertex-");
});
afterAll(() => removeDir(dir));
const open: MockServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function mock(script: MockScriptSource, google: MockGoogleAuth = {}) {
  const s = await startMockServer({
    script,
    google: { publicKeyPem: PUBLIC, clientEmail: EMAIL, ...google },
  });
  open.push(s);
  return s;
}

function keyFile(server: MockServer, key = PRIVATE): string {
  const file = join(dir, `sa-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      type: "service_account",
      project_id: "test-project",
      private_key_id: "k1",
      private_key: key,
      client_email: EMAIL,
      token_uri: `${server.url}/token`,
    }),
  );
  return file;
}

const HISTORY = [
  { role: "system" as const, content: "You are a test." },
  { role: "user" as const, content: "Say hello." },
];

function vertex(server: MockServer, env: Record<string, string>) {
  return createProvider({
    provider: "vertex",
    apiKey: "cloud-credentials",
    baseUrl: server.url,
    env,
    maxRetries: 1,
    retryBaseMs: 1,
  });
}

describe("vertex", () => {
  test("service account: the JWT verified by the mock, the token reused, Gemini under project and location", async () => {
    const server = await mock([{ text: "one" }, { text: "two" }]);
    const p = vertex(server, {
      GOOGLE_APPLICATION_CREDENTIALS: keyFile(server),
      GOOGLE_CLOUD_LOCATION: "europe-west4",
    });
    expect((await p.stream({ model: "gemini-2.5-pro", messages: HISTORY, tools: [] })).message.content).toBe(
      "one",
    );
    expect((await p.stream({ model: "gemini-2.5-pro", messages: HISTORY, tools: [] })).message.content).toBe(
      "two",
    );
    expect(server.google?.exchanges).toHaveLength(1);
    const claims = server.google?.exchanges[0]?.claims;
    expect(claims).toMatchObject({
      iss: EMAIL,
      aud: `${server.url}/token`,
      scope: "https://www.googleapis.com/auth/cloud-platform",
    });
    const rec = server.requests[0];
    expect(rec?.path).toBe(
      "/v1/projects/test-project/locations/europe-west4/publishers/google/models/gemini-2.5-pro:streamGenerateContent",
    );
    expect(rec?.query).toBe("alt=sse");
    expect(rec?.headers.authorization).toBe("Bearer ya29.mock-1");
  });

  test("a token that expires within five minutes is replaced before the next request", async () => {
    const server = await mock([{ text: "a" }, { text: "b" }], { expiresIn: 200 });
    const p = vertex(server, {
      GOOGLE_APPLICATION_CREDENTIALS: keyFile(server),
      GOOGLE_CLOUD_PROJECT: "other-project",
    });
    await p.stream({ model: "gemini-2.5-flash", messages: HISTORY, tools: [] });
    await p.stream({ model: "gemini-2.5-flash", messages: HISTORY, tools: [] });
    expect(server.google?.exchanges).toHaveLength(2);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      "Bearer ya29.mock-1",
      "Bearer ya29.mock-2",
    ]);
    expect(server.requests[0]?.path).toContain("/projects/other-project/locations/us-central1/");
  });

  test("Claude on Vertex: streamRawPredict, the model in the URL, anthropic_version in the body", async () => {
    const server = await mock([{ text: "Claude here." }]);
    const p = vertex(server, {
      GOOGLE_APPLICATION_CREDENTIALS: keyFile(server),
      GOOGLE_CLOUD_LOCATION: "us-east5",
    });
    const res = await p.stream({ model: "claude-sonnet-4-5@20250929", messages: HISTORY, tools: [] });
    expect(res.message.content).toBe("Claude here.");
    const rec = server.requests[0];
    expect(rec?.path).toBe(
      "/v1/projects/test-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict",
    );
    expect(rec?.body).toMatchObject({
      anthropic_version: "vertex-2023-10-16",
      stream: true,
      system: "You are a test.",
    });
    expect(rec?.body).not.toHaveProperty("model");
  });

  test("gcloud's application-default credentials (authorized_user) by their refresh token", async () => {
    const server = await mock([{ text: "adc" }], { refreshToken: "1//refresh-test" });
    const gcloud = join(dir, "gcloud");
    mkdirSync(gcloud, { recursive: true });
    writeFileSync(
      join(gcloud, "application_default_credentials.json"),
      JSON.stringify({
        type: "authorized_user",
        client_id: "cid.apps.googleusercontent.com",
        client_secret: "cs",
        refresh_token: "1//refresh-test",
        token_uri: `${server.url}/token`,
      }),
    );
    const p = vertex(server, { CLOUDSDK_CONFIG: gcloud, GOOGLE_CLOUD_PROJECT: "adc-project" });
    expect((await p.stream({ model: "gemini-2.5-pro", messages: HISTORY, tools: [] })).message.content).toBe(
      "adc",
    );
    expect(server.google?.exchanges.map((e) => e.grant)).toEqual(["refresh_token"]);
  });

  test("a key the mock does not know: the token exchange's refusal, one line naming vertex", async () => {
    const server = await mock([{ text: "never" }]);
    const p = vertex(server, { GOOGLE_APPLICATION_CREDENTIALS: keyFile(server, other) });
    const err = (await rejection(
      p.stream({ model: "gemini-2.5-pro", messages: HISTORY, tools: [] }),
    )) as ProviderError;
    expect(err.kind).toBe("auth");
    expect(err.message).toMatch(
      /^vertex: the Google token exchange at .*\/token failed \(HTTP 400\): invalid_grant: Invalid JWT Signature\.; check the service account key/,
    );
    expect(server.requests).toHaveLength(0);
  });

  test("missing credentials, a missing file, a missing project: one line each", () => {
    expect(() => resolveGoogleCredentials({ HOME: dir, CLOUDSDK_CONFIG: join(dir, "none") })).toThrow(
      /^vertex: no Google credentials: set GOOGLE_APPLICATION_CREDENTIALS to a service-account JSON key, or run `gcloud auth application-default login`$/,
    );
    expect(() =>
      resolveGoogleCredentials({ GOOGLE_APPLICATION_CREDENTIALS: join(dir, "gone.json") }),
    ).toThrow(/names .*gone\.json, which does not exist/);
    const noProject = join(dir, "np.json");
    writeFileSync(
      noProject,
      JSON.stringify({ type: "service_account", private_key: PRIVATE, client_email: EMAIL }),
    );
    expect(() => resolveGoogleCredentials({ GOOGLE_APPLICATION_CREDENTIALS: noProject })).toThrow(
      /^vertex: no Google Cloud project: set GOOGLE_CLOUD_PROJECT/,
    );
  });

  test("overflow on the Gemini wire and on Claude's, and a 429 waited for", async () => {
    const server = await mock([
      { error: "overflow" },
      { error: "overflow" },
      { error: "rate_limit", retry_after: 0.01 },
      { text: "ok" },
    ]);
    const p = vertex(server, { GOOGLE_APPLICATION_CREDENTIALS: keyFile(server) });
    const g = (await rejection(
      p.stream({ model: "gemini-2.5-pro", messages: HISTORY, tools: [] }),
    )) as ProviderError;
    expect(g.kind).toBe("context_overflow");
    const c = (await rejection(
      p.stream({ model: "claude-opus-4-1@20250805", messages: HISTORY, tools: [] }),
    )) as ProviderError;
    expect(c.kind).toBe("context_overflow");
    expect(c.message).toContain("prompt is too long");
    expect((await p.stream({ model: "gemini-2.5-pro", messages: HISTORY, tools: [] })).message.content).toBe(
      "ok",
    );
  });
});
