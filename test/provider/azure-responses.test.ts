// Azure OpenAI's Responses wire: the v1 endpoint (/openai/v1/responses, no api-version), the deployment
// named in the body's model, the api-key header, and the request and reply shaped by the real responses
// module through the WorkerHost, as `--provider responses` does.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createProvider } from "../../src/provider/index.ts";
import type { WorkerHost } from "../../src/worker/host.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";
import { hostFor } from "../helpers/worker-io.ts";
import { mock } from "./helpers.ts";

let root: string;
let host: WorkerHost;
beforeAll(() => {
  root = tempDir("i-azure-responses-");
  mkdirSync(join(root, "config"));
  host = hostFor(["responses"], {
    configDir: join(root, "config"),
    workspace: root,
    dataDir: join(root, "data"),
  });
});
afterAll(async () => {
  await host.close();
  removeDir(root);
});

test("azure with wire responses: /openai/v1/responses, the deployment as the model, api-key", async () => {
  const server = await mock([{ text: "Hello from Azure Responses.", reasoning: "short" }]);
  const p = createProvider({
    provider: "azure",
    apiKey: "0123456789abcdef0123456789abcdef",
    baseUrl: server.url,
    cloud: { azure: { wire: "responses", deployment: "gpt5-prod" } },
    hooks: host,
    maxRetries: 0,
  });
  const res = await p.stream({
    model: "gpt-5-mini",
    messages: [
      { role: "system", content: "You are a test." },
      { role: "user", content: "Say hello." },
    ],
    tools: [],
  });
  expect(res.message.content).toBe("Hello from Azure Responses.");
  const rec = server.requests[0];
  expect(rec?.path).toBe("/openai/v1/responses");
  expect(rec?.query).toBe("");
  expect(rec?.headers["api-key"]).toBe("0123456789abcdef0123456789abcdef");
  expect(rec?.body).toHaveProperty("model", "gpt5-prod");
});
