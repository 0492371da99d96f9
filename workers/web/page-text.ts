// From fetched bytes to the text the model sees: decode by the declared charset, convert HTML, pass
// text formats through, refuse binary content, and bound the result.
import { clipText } from "../sdk/text-limits.ts";
import type { FetchedPage } from "./fetch-page.ts";
import { htmlToText } from "./html-text.ts";

/** Largest web_fetch result handed to the model. */
export const MAX_PAGE_CHARS = 50_000;
/** Body excerpt kept with an HTTP error status. */
export const MAX_ERROR_BODY_CHARS = 2_000;

const TEXT_TYPES =
  /^(text\/|application\/(json|xml|javascript|ecmascript|x-ndjson|ld\+json|rss\+xml|atom\+xml)|.*\+(json|xml)$)/;

function mediaType(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}

function decode(body: Uint8Array, contentType: string): string {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body); // unknown label: UTF-8 is the web's default
  }
}

export type PageResult = { ok: true; text: string; isError: boolean } | { ok: false; reason: string };

export function pageText(page: FetchedPage): PageResult {
  const type = mediaType(page.contentType);
  const sniffHtml = type === "" && /^\s*(<!doctype html|<html)/i.test(decode(page.body.subarray(0, 512), ""));
  const isHtml = type === "text/html" || type === "application/xhtml+xml" || sniffHtml;
  const isText = isHtml || TEXT_TYPES.test(type) || (type === "" && !page.body.subarray(0, 4096).includes(0));
  if (!isText)
    return {
      ok: false,
      reason: `${page.url} returned ${type || "binary"} content; only text and HTML pages can be read`,
    };

  const raw = decode(page.body, page.contentType);
  let text = raw;
  let title: string | undefined;
  if (isHtml) ({ title, text } = htmlToText(raw, page.url));
  const isError = page.status >= 400;
  const header = [
    `URL: ${page.url}`,
    `Status: ${page.status}${page.statusText ? ` ${page.statusText}` : ""}`,
    ...(type ? [`Content-Type: ${type}`] : []),
    ...(title ? [`Title: ${title}`] : []),
  ].join("\n");
  const limit = isError ? MAX_ERROR_BODY_CHARS : MAX_PAGE_CHARS;
  let body = clipText(
    text,
    limit,
    (total) => `[page cut: ${total} characters, only the first ${limit} are shown]`,
  );
  if (page.truncated) body += "\n[download stopped at the byte limit; the page continues]";
  return { ok: true, text: `${header}\n\n${body}`, isError };
}
