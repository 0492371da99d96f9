// The parts of the Bedrock wire that need the heavy libraries, loaded only when a Bedrock request is made:
// SigV4 signing (aws4fetch's) of the exact bytes sent, per attempt (the signature covers the time), and the
// AWS event-stream framing (@smithy/eventstream-codec), whose frames carry a CRC that is checked.
import { createHash, createHmac } from "node:crypto";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { AwsV4Signer } from "aws4fetch";
import type { CallSite } from "../errors.ts";
import type { SseEvent } from "../sse.ts";
import type { Authorize, EventReader } from "../transport.ts";
import { ProviderError } from "../types.ts";
import type { AwsCredentials } from "./aws-credentials.ts";

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/**
 * aws4fetch's signer with its two primitives done by node:crypto: the canonical request, the signed headers
 * and the scope stay aws4fetch's; SHA-256 and HMAC-SHA256 run synchronously instead of as WebCrypto
 * promises (six per request, each several times the cost of the node:crypto call, most of a Bedrock
 * request's overhead in scripts/bench/providers.ts). The payload's hash is given as x-amz-content-sha256,
 * which SigV4 signs like any header.
 */
class Signer extends AwsV4Signer {
  override async stringToSign(): Promise<string> {
    const canonical = await this.canonicalString();
    return ["AWS4-HMAC-SHA256", this.datetime, this.credentialString, sha256Hex(canonical)].join("\n");
  }

  override async signature(): Promise<string> {
    const date = this.datetime.slice(0, 8);
    const cacheKey = [this.secretAccessKey, date, this.region, this.service].join();
    let key = this.cache.get(cacheKey);
    if (!key) {
      const kDate = hmac(`AWS4${this.secretAccessKey}`, date);
      const kRegion = hmac(kDate, this.region);
      const kService = hmac(kRegion, this.service);
      key = toArrayBuffer(hmac(kService, "aws4_request"));
      this.cache.set(cacheKey, key);
    }
    return hmac(new Uint8Array(key), await this.stringToSign()).toString("hex");
  }
}

const sha256Hex = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Uint8Array, data: string) => createHmac("sha256", key).update(data).digest();
const toArrayBuffer = (b: Buffer): ArrayBuffer => new Uint8Array(b).buffer;

/**
 * Per attempt: the signature of these exact bytes at this time; the day's signing key kept per
 * credentials. `knownHash` gives the payload's SHA-256 when the body's maker already has it.
 */
export function sigV4(
  creds: AwsCredentials,
  base: Record<string, string>,
  knownHash: (body: string | Uint8Array) => string | undefined = () => undefined,
): Authorize {
  const keys = new Map<string, ArrayBuffer>();
  return async (url, body) => {
    // The signer reads the payload only to hash it, and the hash is given: the bytes need no copy.
    const signer = new Signer({
      method: "POST",
      url,
      headers: { ...base, "x-amz-content-sha256": knownHash(body) ?? sha256Hex(body) },
      cache: keys,
      accessKeyId: creds.accessKeyId,
      secretAccessKey: creds.secretAccessKey,
      ...(creds.sessionToken ? { sessionToken: creds.sessionToken } : {}),
      service: "bedrock",
      region: creds.region,
    });
    const signed = await signer.sign();
    const out: Record<string, string> = {};
    signed.headers.forEach((v, k) => {
      if (k === "authorization" || k.startsWith("x-amz-")) out[k] = v;
    });
    return out;
  };
}

/**
 * Header names and values are the same few strings in every frame (":event-type", "contentBlockDelta",
 * ":content-type"…), six per frame: each is decoded once, then found by its bytes. Bounded: short strings
 * only, a few per length.
 */
const headerStrings = new Map<number, { bytes: Uint8Array; text: string }[]>();

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function headerUtf8(b: Uint8Array): string {
  if (b.length > 64) return utf8.decode(b);
  const known = headerStrings.get(b.length) ?? [];
  for (const k of known) if (sameBytes(k.bytes, b)) return k.text;
  const text = utf8.decode(b);
  if (known.length === 0) headerStrings.set(b.length, known);
  if (known.length < 16) known.push({ bytes: b.slice(), text });
  return text;
}

function headerText(v: { type: string; value: unknown } | undefined): string {
  return v && typeof v.value === "string" ? v.value : "";
}

/** Cuts a byte stream into whole frames by their prelude's total length (the codec decodes one frame). */
class FrameSplitter {
  private buf = new Uint8Array(0);

  push(chunk: Uint8Array): Uint8Array[] {
    const joined = new Uint8Array(this.buf.length + chunk.length);
    joined.set(this.buf);
    joined.set(chunk, this.buf.length);
    const out: Uint8Array[] = [];
    let at = 0;
    while (joined.length - at >= 4) {
      const total = new DataView(joined.buffer, at, 4).getUint32(0);
      // Prelude (12) + message CRC (4) at least; 16 MiB at most, as the service's own limit.
      if (total < 16 || total > 16 * 1024 * 1024) throw new Error(`impossible frame length ${total}`);
      if (joined.length - at < total) break;
      out.push(joined.subarray(at, at + total));
      at += total;
    }
    this.buf = joined.slice(at);
    return out;
  }

  /** bytes of an unfinished frame left when the stream ended */
  get pending(): number {
    return this.buf.length;
  }
}

/** The frames of an event-stream body as events; a frame that fails its checks is a clear, retried error. */
export function eventStreamReader(site: CallSite): EventReader {
  return async function* read(body, signal, touch): AsyncGenerator<SseEvent> {
    const codec = new EventStreamCodec(headerUtf8, (s) => encoder.encode(s));
    const frames = new FrameSplitter();
    const reader = body.getReader();
    const onAbort = () => reader.cancel().catch(() => {});
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      while (true) {
        const { done, value } = await reader.read();
        if (signal.aborted) throw signal.reason ?? new DOMException("aborted", "AbortError");
        if (done) break;
        touch();
        let messages: ReturnType<EventStreamCodec["decode"]>[];
        try {
          messages = frames.push(value).map((f) => codec.decode(f));
        } catch (err) {
          throw new ProviderError(
            "server",
            `${site.provider} model "${site.model}": malformed event-stream frame: ${(err as Error).message}`,
          );
        }
        for (const m of messages) {
          const kind = headerText(m.headers[":message-type"]);
          const type =
            kind === "exception" || kind === "error"
              ? `exception:${headerText(m.headers[":exception-type"]) || headerText(m.headers[":error-code"]) || "unknown"}`
              : headerText(m.headers[":event-type"]);
          yield { event: type, data: utf8.decode(m.body) };
        }
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
      reader.cancel().catch(() => {});
    }
  };
}
