// The Amazon Bedrock provider: the Converse stream API (Claude, Llama, Mistral, Nova alike), SigV4-signed
// with the standard credential chain, its AWS event-stream reply decoded frame by frame. The credentials
// are found when the provider is made (a run without them is refused before it starts); the signer and
// the codec are loaded on the first request, so no other provider pays for them.
import type { BedrockConfig } from "../../contract/cloud-config.ts";
import { type Authorize, JsonBytes, type ProviderSettings, streamModelRequest } from "../transport.ts";
import type { Provider } from "../types.ts";
import { resolveAwsCredentials } from "./aws-credentials.ts";
import { hashedBody } from "./body-hash.ts";
import { bedrockRequestParts } from "./request.ts";
import { BedrockDecoder } from "./stream.ts";

const encoder = new TextEncoder();

/** The runtime endpoint: --base-url, AWS_ENDPOINT_URL_BEDROCK_RUNTIME, AWS_ENDPOINT_URL, else the region's. */
export function bedrockBase(settings: ProviderSettings, env: NodeJS.ProcessEnv, region: string): string {
  return (
    settings.baseUrl ??
    (env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME?.trim() ||
      env.AWS_ENDPOINT_URL?.trim() ||
      `https://bedrock-runtime.${region}.amazonaws.com`)
  );
}

export function bedrockEndpoint(base: string, model: string): string {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/model/${encodeURIComponent(model)}/converse-stream`;
  return url.toString();
}

export function createBedrockProvider(
  settings: ProviderSettings,
  env: NodeJS.ProcessEnv,
  cfg: BedrockConfig | undefined,
): Provider {
  const creds = resolveAwsCredentials(env, cfg);
  const base = bedrockBase(settings, env, creds.region);
  const headers = {
    "content-type": "application/json",
    accept: "application/vnd.amazon.eventstream",
    ...settings.headers,
  };
  const signed = { ...settings, apiKey: creds.secretAccessKey };
  // The bytes each request sent and their SHA-256, hashed as they were made (body-hash.ts).
  const hashes = new WeakMap<object, string>();
  const knownHash = (body: string | Uint8Array) => (typeof body === "string" ? undefined : hashes.get(body));
  // The signer is made once: it keeps the day's signing key.
  let wire:
    | Promise<{ authorize: Authorize; reader: typeof import("./wire.ts").eventStreamReader }>
    | undefined;
  return {
    name: "bedrock",
    async stream(req, onEvent) {
      wire ??= import("./wire.ts").then((w) => ({
        authorize: w.sigV4(creds, headers, knownHash),
        reader: w.eventStreamReader,
      }));
      const { authorize, reader } = await wire;
      const site = { provider: "bedrock" as const, model: req.model, apiKey: creds.secretAccessKey };
      const endpoint = {
        provider: "bedrock" as const,
        url: bedrockEndpoint(base, req.model),
        headers,
        authorize,
        reader: reader(site),
      };
      const body = new JsonBytes(() => {
        const { text, sha256 } = hashedBody(req.messages, bedrockRequestParts(req));
        const bytes = encoder.encode(text);
        hashes.set(bytes, sha256);
        return bytes;
      });
      return streamModelRequest(signed, endpoint, req, body, onEvent, BedrockDecoder);
    },
  };
}
