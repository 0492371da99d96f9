import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { UserError } from "../../../src/contract/errors.ts";
import { loadWebSettings, type WebSettings } from "../../../workers/web/config.ts";
import { createWebModule, loadWebModule } from "../../../workers/web/index.ts";
import { removeDir, tempDir } from "../../helpers/cli.ts";
import { inProcess } from "../../helpers/worker-io.ts";

let server: Server;
let base: string;
let root: string;
const hanging: ServerResponse[] = [];

const PAGE = `<!doctype html><html><head><title>Test &amp; Page</title><style>body{color:red}</style>
<script>var secret = "do not show";</script></head><body>
<h1>Main heading</h1><p>First   paragraph with a <a href="/docs">docs link</a> and &lt;code&gt;.</p>
<!-- a comment -->
<ul><li>one</li><li>two</li></ul><pre>  indented
    more</pre><h2>Second</h2><p>caf&eacute; &#8364; &#x41;</p></body></html>`;

function handler(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? "/", base);
  const hops = Number(url.searchParams.get("n") ?? "0");
  switch (url.pathname) {
    case "/page":
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
      return;
    case "/text":
      res.writeHead(200, { "content-type": "text/plain" }).end("plain text body");
      return;
    case "/json":
      res.writeHead(200, { "content-type": "application/json" }).end('{"a":1}');
      return;
    case "/binary":
      res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([137, 80, 78, 71, 0, 0]));
      return;
    case "/big":
      res.writeHead(200, { "content-type": "text/plain" }).end("A".repeat(200_000));
      return;
    case "/missing":
      res.writeHead(404, { "content-type": "text/plain" }).end("no such page");
      return;
    case "/redirect":
      res.writeHead(302, { location: hops > 1 ? `/redirect?n=${hops - 1}` : "/text" }).end();
      return;
    case "/to-file":
      res.writeHead(301, { location: "file:///etc/passwd" }).end();
      return;
    case "/hang":
      hanging.push(res);
      return;
    case "/search":
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          query: url.searchParams.get("q"),
          results: [
            {
              title: `About ${url.searchParams.get("q")}`,
              url: "https://example.org/a",
              content: "snippet A",
            },
            { title: "B", url: "https://example.org/b", content: null, engine: "x" },
          ],
        }),
      );
      return;
    default:
      res.writeHead(500).end();
  }
}

beforeAll(async () => {
  root = tempDir("i-web-");
  server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  removeDir(root);
});

const settings = (over: Partial<WebSettings> = {}): WebSettings => ({
  allowPrivate: true,
  searchEndpoint: undefined,
  timeoutMs: 5000,
  maxBytes: 1024 * 1024,
  ...over,
});

type Result = { content: string; is_error: boolean };
async function call(s: WebSettings, name: string, args: unknown): Promise<Result> {
  const worker = inProcess(createWebModule(s));
  try {
    const reply = await worker.request("tool", { name, arguments: args, call_id: "c" }, root);
    if (reply.error) throw new Error(reply.error);
    return reply.data?.result as Result;
  } finally {
    await worker.close();
  }
}
const fetchUrl = (url: string, s = settings(), extra: Record<string, unknown> = {}) =>
  call(s, "web_fetch", { url, ...extra });

describe("web.json", () => {
  function configWith(json: string): string {
    const dir = join(root, `cfg-${Math.random().toString(36).slice(2)}`);
    mkdirSync(dir);
    writeFileSync(join(dir, "web.json"), json);
    return dir;
  }

  test("defaults without the file; values when present", () => {
    const empty = join(root, "empty");
    mkdirSync(empty, { recursive: true });
    expect(loadWebSettings(empty)).toEqual({
      allowPrivate: false,
      searchEndpoint: undefined,
      timeoutMs: 10_000,
      maxBytes: 1048576,
    });
    const dir = configWith(
      '{"allow_private":true,"search_endpoint":"http://127.0.0.1:1/search","timeout_ms":2000}',
    );
    expect(loadWebSettings(dir)).toMatchObject({
      allowPrivate: true,
      searchEndpoint: "http://127.0.0.1:1/search",
      timeoutMs: 2000,
    });
  });

  test("unknown keys, bad values and bad JSON are one clear UserError naming the file", () => {
    const unknown = configWith('{"allow_privat":true}');
    expect(() => loadWebSettings(unknown)).toThrow(UserError);
    expect(() => loadWebSettings(unknown)).toThrow(
      `${join(unknown, "web.json")}: unknown key "allow_privat"`,
    );
    expect(() => loadWebSettings(configWith('{"search_endpoint":"ftp://x/"}'))).toThrow(
      "field search_endpoint",
    );
    expect(() => loadWebSettings(configWith('{"timeout_ms":60000}'))).toThrow("field timeout_ms");
    expect(() => loadWebSettings(configWith("{nope"))).toThrow("malformed JSON");
  });

  test("web_search is declared only with an endpoint", async () => {
    const plain = inProcess(loadWebModule(configWith("{}")));
    const hello = (await plain.request("hello", { protocol: 1, module: "web" }, root)).data;
    await plain.close();
    expect(((hello?.tools ?? []) as { name: string }[]).map((t) => t.name)).toEqual(["web_fetch"]);
    const withSearch = inProcess(loadWebModule(configWith(`{"search_endpoint":"${base}/search"}`)));
    const hello2 = (await withSearch.request("hello", { protocol: 1, module: "web" }, root)).data;
    await withSearch.close();
    expect(((hello2?.tools ?? []) as { name: string }[]).map((t) => t.name)).toEqual([
      "web_fetch",
      "web_search",
    ]);
  });
});

describe("web_fetch", () => {
  test("an HTML page comes back as readable text with a header", async () => {
    const r = await fetchUrl(`${base}/page`);
    expect(r.is_error).toBe(false);
    expect(
      r.content.startsWith(
        `URL: ${base}/page\nStatus: 200 OK\nContent-Type: text/html\nTitle: Test & Page\n\n# Main heading`,
      ),
    ).toBe(true);
    expect(r.content).not.toContain("do not show");
    expect(r.content).not.toContain("color:red");
    expect(r.content).toContain(`docs link (${base}/docs)`);
  });

  test("text and JSON pass through; binary is refused", async () => {
    expect((await fetchUrl(`${base}/text`)).content).toEndWith("\n\nplain text body");
    expect((await fetchUrl(`${base}/json`)).content).toEndWith('\n\n{"a":1}');
    const bin = await fetchUrl(`${base}/binary`);
    expect(bin.is_error).toBe(true);
    expect(bin.content).toContain("image/png content");
  });

  test("an HTTP error status is a tool error carrying the status and body", async () => {
    const r = await fetchUrl(`${base}/missing`);
    expect(r.is_error).toBe(true);
    expect(r.content).toContain("Status: 404 Not Found");
    expect(r.content).toContain("no such page");
  });

  test("follows up to 5 redirects, re-checking each hop", async () => {
    const ok = await fetchUrl(`${base}/redirect?n=5`);
    expect(ok.is_error).toBe(false);
    expect(ok.content).toStartWith(`URL: ${base}/text\n`);
    const tooMany = await fetchUrl(`${base}/redirect?n=6`);
    expect(tooMany.is_error).toBe(true);
    expect(tooMany.content).toContain("more than 5 redirects");
    const toFile = await fetchUrl(`${base}/to-file`);
    expect(toFile.content).toBe(
      "web_fetch: refused: redirected to file:///etc/passwd: only http and https URLs can be fetched, not file",
    );
  });

  test("refuses other schemes, and private addresses unless allowed", async () => {
    expect((await fetchUrl("file:///etc/passwd")).content).toContain("only http and https URLs");
    expect((await fetchUrl("ftp://127.0.0.1/x")).content).toContain("not ftp");
    const strict = settings({ allowPrivate: false });
    const loop = await fetchUrl(`${base}/text`, strict);
    expect(loop.is_error).toBe(true);
    expect(loop.content).toContain(
      '127.0.0.1 is a private or local address (127.0.0.1); set "allow_private": true in web.json',
    );
    const port = new URL(base).port;
    expect((await fetchUrl(`http://localhost:${port}/text`, strict)).content).toContain(
      "private or local address",
    );
    expect((await fetchUrl(`http://[::1]:${port}/text`, strict)).content).toContain(
      "private or local address",
    );
    expect((await fetchUrl(`http://169.254.169.254/latest/meta-data`, strict)).content).toContain("refused");
    // IPv6 forms that carry a private IPv4 address are refused like it (the URL parser writes them in hex).
    for (const host of [
      "[::127.0.0.1]",
      "[::ffff:7f00:1]",
      "[64:ff9b::7f00:1]",
      "[2002:7f00:1::1]",
      "[::ffff:0:7f00:1]",
    ]) {
      const r = await fetchUrl(`http://${host}:${port}/text`, strict);
      expect([host, r.is_error, String(r.content)]).toEqual([
        host,
        true,
        expect.stringContaining("private or local address"),
      ]);
    }
  });

  test("reads at most max_bytes and says the page continues", async () => {
    const r = await fetchUrl(`${base}/big`, settings(), { max_bytes: 1000 });
    expect(r.content).toContain(
      `\n\n${"A".repeat(1000)}\n[download stopped at the byte limit; the page continues]`,
    );
    const capped = await fetchUrl(`${base}/big`, settings({ maxBytes: 500 }), { max_bytes: 100_000 });
    expect(capped.content).toContain(`${"A".repeat(500)}\n[download stopped`);
    const whole = await fetchUrl(`${base}/big`);
    expect(whole.content).toContain("[page cut: 200000 characters, only the first 50000 are shown]");
  });

  test("a server that never answers times out as a tool error", async () => {
    const r = await fetchUrl(`${base}/hang`, settings({ timeoutMs: 300 }));
    expect(r).toEqual({ content: "web_fetch: timed out after 300 ms", is_error: true });
  });

  test("connection failures and bad arguments are tool errors", async () => {
    const dead = await fetchUrl("http://127.0.0.1:1/");
    expect(dead.is_error).toBe(true);
    expect(dead.content).toStartWith("web_fetch: ");
    expect((await call(settings(), "web_fetch", { url: "not a url" })).content).toContain(
      "invalid arguments: field url:",
    );
  });
});

describe("web_search", () => {
  test("queries the configured endpoint and lists results", async () => {
    const r = await call(settings({ searchEndpoint: `${base}/search` }), "web_search", { query: "bun test" });
    expect(r).toEqual({
      content: "1. About bun test\n   https://example.org/a\n   snippet A\n2. B\n   https://example.org/b",
      is_error: false,
    });
  });

  test("a broken endpoint is a tool error", async () => {
    const r = await call(settings({ searchEndpoint: `${base}/text` }), "web_search", { query: "x" });
    expect(r.is_error).toBe(true);
    expect(r.content).toContain("did not return JSON");
  });
});
