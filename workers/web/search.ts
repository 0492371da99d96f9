// web_search through a SearXNG-style JSON endpoint configured in web.json. The endpoint is the user's own
// choice, so it is not subject to the private-address rule (a local SearXNG is the usual setup).
import { FetchError, ofetch } from "ofetch";
import { z } from "zod";
import { clipLine, clipText } from "../sdk/text-limits.ts";

export const MAX_SEARCH_RESULTS = 10;
export const MAX_SEARCH_CHARS = 20_000;

const SearchReply = z.lazy(() =>
  z.object({
    results: z.array(
      z.object({
        url: z.string(),
        title: z.string().optional(),
        content: z.string().nullish(),
      }),
    ),
  }),
);

/** The endpoint's reply as text; HTTP errors and timeouts become one-line Errors. */
async function fetchResults(url: URL, timeoutMs: number): Promise<string> {
  try {
    // Text, not ofetch's JSON: its lenient parser would hand back an HTML error page as a string.
    return await ofetch(url.href, {
      timeout: timeoutMs,
      retry: 0,
      headers: { accept: "application/json" },
      responseType: "text",
    });
  } catch (err) {
    if (err instanceof FetchError && err.statusCode !== undefined)
      throw new Error(`the search endpoint answered HTTP ${err.statusCode}`);
    throw err;
  }
}

export async function webSearch(endpoint: string, query: string, timeoutMs: number): Promise<string> {
  const url = new URL(endpoint);
  url.searchParams.set("q", query);
  url.searchParams.set("format", "json");
  const body = await fetchResults(url, timeoutMs);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new Error("the search endpoint did not return JSON (does it have format=json enabled?)");
  }
  const parsed = SearchReply.safeParse(json);
  if (!parsed.success)
    throw new Error('the search endpoint\'s JSON has no "results" list of {url, title, content}');
  const results = parsed.data.results.slice(0, MAX_SEARCH_RESULTS);
  if (results.length === 0) return `no results for "${query}"`;
  const text = results
    .map((r, i) => {
      const lines = [`${i + 1}. ${clipLine(r.title || r.url, 200)}`, `   ${r.url}`];
      if (r.content) lines.push(`   ${clipLine(r.content, 400)}`);
      return lines.join("\n");
    })
    .join("\n");
  return clipText(text, MAX_SEARCH_CHARS, () => "[results cut]");
}
