// Real process: `i worker web` configured by web.json, fetching from and searching a local server.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { WorkerHost } from "../../../src/worker/host.ts";
import { removeDir, tempDir } from "../../helpers/cli.ts";
import { hostFor } from "../../helpers/worker-io.ts";

let root: string;
let server: Server;
let base: string;
const hosts: WorkerHost[] = [];

function host(webJson: string): WorkerHost {
  const configDir = join(root, `config-${hosts.length}`);
  mkdirSync(configDir);
  writeFileSync(join(configDir, "web.json"), webJson);
  const h = hostFor(["web"], { configDir, workspace: root, dataDir: join(root, "data") });
  hosts.push(h);
  return h;
}

beforeAll(async () => {
  root = tempDir("i-web-proc-");
  server = createServer((req, res) => {
    if (req.url?.startsWith("/search")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ results: [{ title: "Hit", url: "https://example.org/", content: "text" }] }));
    } else res.writeHead(200, { "content-type": "text/html" }).end("<h1>Local page</h1><p>body</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  removeDir(root);
});

test("web_fetch and the optional web_search work through a real worker process", async () => {
  const h = host(`{"allow_private": true, "search_endpoint": "${base}/search"}`);
  await h.start(["web"]);
  expect(h.toolDecls().map((t) => t.name)).toEqual(["web_fetch", "web_search"]);
  const page = await h.callTool("web_fetch", { url: `${base}/page` }, "c1");
  expect(page.is_error).toBe(false);
  expect(page.content).toEndWith("\n\n# Local page\n\nbody");
  expect(await h.callTool("web_search", { query: "q" }, "c2")).toEqual({
    content: "1. Hit\n   https://example.org/\n   text",
    is_error: false,
  });
});

test("without allow_private the local server is refused; a bad web.json fails the worker clearly", async () => {
  const strict = host("{}");
  const refused = await strict.callTool("web_fetch", { url: `${base}/page` }, "c1");
  expect(refused.is_error).toBe(true);
  expect(refused.content).toContain("private or local address");

  const broken = host('{"allow_private": "yes"}');
  const failed = await broken.callTool("web_fetch", { url: `${base}/page` }, "c2").then(
    () => "no error",
    (err: Error) => err.message,
  );
  expect(failed).toContain('worker "web"');
  expect(failed).toContain("web.json: field allow_private: expected boolean");
});
