// One web_fetch: http(s) only, every hop's address checked, at most MAX_REDIRECTS redirects, one time
// limit for the whole fetch, and at most `maxBytes` of body read (the rest is never downloaded).
import { readCappedBody } from "../../src/lib/read-capped.ts";
import { refusalReason } from "./address-check.ts";

export const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface FetchedPage {
  url: string;
  status: number;
  statusText: string;
  contentType: string;
  body: Uint8Array;
  /** true when the body was cut at maxBytes */
  truncated: boolean;
}

export class FetchRefused extends Error {}

export interface FetchOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  maxBytes: number;
  headers?: Record<string, string>;
}

/** Fetches `start`; throws FetchRefused for a refused address/scheme, other Errors for transport faults. */
export async function fetchPage(start: string, opts: FetchOptions): Promise<FetchedPage> {
  const signal = AbortSignal.timeout(opts.timeoutMs);
  let url = new URL(start);
  for (let hop = 0; ; hop++) {
    const refused = await refusalReason(url, opts.allowPrivate);
    if (refused) throw new FetchRefused(hop === 0 ? refused : `redirected to ${url.href}: ${refused}`);
    // Plain fetch, not ofetch: every redirect hop is checked against the address rules before it is
    // followed, and the body is read as a capped stream; ofetch would follow and buffer on its own.
    const res = await fetch(url, {
      redirect: "manual",
      signal,
      headers: {
        "user-agent": "i-agent (web_fetch)",
        accept: "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.5",
        ...opts.headers,
      },
    });
    const location = res.headers.get("location");
    if (REDIRECTS.has(res.status) && location) {
      await res.body?.cancel().catch(() => {});
      if (hop >= MAX_REDIRECTS)
        throw new FetchRefused(`more than ${MAX_REDIRECTS} redirects (last to ${location})`);
      url = new URL(location, url);
      continue;
    }
    const { bytes: body, truncated } = await readCappedBody(res, opts.maxBytes);
    return {
      url: url.href,
      status: res.status,
      statusText: res.statusText,
      contentType: res.headers.get("content-type") ?? "",
      body,
      truncated,
    };
  }
}
