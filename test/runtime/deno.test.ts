// The code must run unmodified under Deno 2. These run the real CLI under Deno (installed from the npm
// registry as a dev dependency): manifest generation, a built-in worker round trip, and a whole print-mode
// run with tools and worker processes against the mock model.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MockServer, startMockServer } from "../fixtures/mock-server/index.ts";
import { dirEnv, removeDir, savedSessionIds } from "../helpers/cli.ts";
import { DENO, denoCli, denoCliSync, denoHome } from "../helpers/deno.ts";

let dir: string;
let mock: MockServer;

beforeAll(async () => {
  dir = denoHome("i-deno-");
  writeFileSync(join(dir, "ws", "a.txt"), "alpha\n");
  mock = await startMockServer({
    script: [
      { tool_calls: [{ name: "read", arguments: { path: "a.txt" } }] },
      { tool_calls: [{ name: "grep", arguments: { pattern: "alph" } }] },
      { text: "deno run finished" },
    ],
  });
});
afterAll(async () => {
  await mock.close();
  removeDir(dir);
});

const env = () => dirEnv(dir);

test("deno is installed by npm install", () => {
  expect(existsSync(DENO)).toBe(true);
});

test("i --runtime manifest under Deno binds built-ins to deno itself", () => {
  const r = denoCliSync(["--runtime", "manifest", "compact"], { env: env() });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  const m = JSON.parse(r.stdout);
  expect(m.modules.map((x: { name: string }) => x.name)).toEqual(["budget", "compact"]);
  expect(m.modules[0].exec.slice(1, 3)).toEqual(["run", "-A"]);
});

test("i worker under Deno answers hello over NDJSON", () => {
  const hello = `${JSON.stringify({ id: 7, event: "hello", workspace: dir, data: { protocol: 1, module: "search" } })}\n`;
  const r = denoCliSync(["worker", "search"], { env: env(), input: hello, cwd: join(dir, "cfg") });
  expect(r.status).toBe(0);
  const reply = JSON.parse(r.stdout.trim());
  expect(reply.id).toBe(7);
  expect(reply.data.tools.map((t: { name: string }) => t.name)).toEqual(["grep", "find"]);
});

test("a whole print-mode run under Deno: core tool, module tool, final answer", async () => {
  const r = await denoCli(
    ["-p", "read and grep", "-m", "mock-model", "--base-url", mock.url, "--workspace", join(dir, "ws")],
    env(),
  );
  const [code, out, err] = [r.code, r.stdout, r.stderr];
  expect(err).toBe("");
  expect(code).toBe(0);
  expect(out).toBe("deno run finished\n");
  expect(mock.requests).toHaveLength(3);
  expect(JSON.stringify(mock.requests[2]?.body)).toContain("a.txt:1: alpha");
  const [id] = savedSessionIds(join(dir, "data"));
  const history = JSON.parse(readFileSync(join(dir, "data", id as string, "history.json"), "utf8"));
  expect(history.at(-1).content).toBe("deno run finished");
}, 60_000);

test("under Deno, credentials in the environment are held when they are blanked: a SigV4-signed Bedrock run", async () => {
  // Deno's process.env reads the live environment, which the credential blanking empties: the keys must
  // be read first. The mock verifies the signature with the same secret.
  const identity = {
    accessKeyId: "AKIDEXAMPLEDENO0001",
    secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYDENOKEY",
  };
  const aws = await startMockServer({
    script: [{ text: "signed under deno" }],
    aws: { identity, region: "us-west-2" },
  });
  try {
    const model = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
    const r = await denoCli(
      ["-p", "hi", "--provider", "bedrock", "-m", model, "--base-url", aws.url, "--profile", "budget"],
      {
        ...env(),
        AWS_ACCESS_KEY_ID: identity.accessKeyId,
        AWS_SECRET_ACCESS_KEY: identity.secretAccessKey,
        AWS_REGION: "us-west-2",
        HOME: dir,
      },
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("signed under deno\n");
  } finally {
    await aws.close();
  }
}, 60_000);
