// The first run as a new user meets it: the real CLI in tmux with an empty config directory and no key in
// the environment. It asks for the provider, the server URL, the key (never on screen), the model and its
// window, sends one test request to the mock, saves auth.json (0600) and config.json (other keys kept),
// then starts the console. Without a terminal the one-line error stays, exit 2. `i auth login` for Bedrock
// lists the AWS profiles found and refuses an unknown one in one line. Menu choices are picked by their
// label, so a provider added to the menu does not shift what the tests answer.
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MockServer, startMockServer } from "../fixtures/mock-server/index.ts";
import { MAIN, removeDir, runCliAsync, tempDir } from "../helpers/cli.ts";
import { Pty } from "../helpers/pty.ts";

const KEY = "sk-firstrun-secret-0123456789abcdef";

let pty: Pty | undefined;
let mock: MockServer | undefined;
let root: string | undefined;
afterEach(async () => {
  await pty?.close();
  await mock?.close();
  if (root) removeDir(root);
  pty = mock = root = undefined;
});

function freshHome(): { root: string; cfg: string; ws: string; env: Record<string, string> } {
  const r = tempDir("i-first-run-");
  const cfg = join(r, "cfg");
  const ws = join(r, "ws");
  for (const d of [cfg, ws, join(r, "data")]) mkdirSync(d, { recursive: true });
  // A key the user set by hand must survive the setup.
  writeFileSync(join(cfg, "config.json"), JSON.stringify({ stream_idle_timeout_ms: 60_000 }));
  const env = { I_CONFIG_DIR: cfg, I_DATA_DIR: join(r, "data"), HOME: r, PATH: process.env.PATH ?? "/bin" };
  return { root: r, cfg, ws, env };
}

async function answer(p: Pty, question: string, text: string): Promise<void> {
  await p.waitFor(question);
  if (text) await p.type(text);
  await p.press("Enter");
}

/** Choose the option shown as `label` by the number the menu gives it (the menu's order may change). */
async function choose(p: Pty, question: string, label: string): Promise<void> {
  const after = (s: string) => (s.includes(question) ? s.slice(s.lastIndexOf(question)) : "");
  const tail = after(await p.waitFor((s) => after(s).includes(label) && after(s).includes("Choose")));
  const n = new RegExp(`(\\d+)\\s+${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`).exec(tail)?.[1];
  expect(n).toBeDefined();
  await answer(p, "Choose", n ?? "");
}

test("first run in a terminal: provider, URL, hidden key, model and window, a failed then a good test request, the prompt", async () => {
  mock = await startMockServer({
    script: [{ error: "auth" }, { text: "ok" }, { text: "hello from the model" }],
  });
  const home = freshHome();
  root = home.root;
  pty = await Pty.start({
    argv: [process.execPath, MAIN, "--workspace", home.ws],
    env: home.env,
    cols: 100,
    rows: 40,
  });
  await choose(pty, "Which models do you use?", "An OpenAI-compatible server");
  await answer(pty, "Server URL", mock.url);
  await answer(pty, "API key (hidden", KEY);
  await choose(pty, "Which model?", "another model");
  await answer(pty, "Model name", "mock-model");
  await answer(pty, "context window", "100000");
  await answer(pty, "test request now?", "y");
  // The mock's auth error quotes the key it was sent: the setup shows the reason, never the key.
  await pty.waitFor("the test request failed");
  await choose(pty, "What do you want to change?", "nothing: try again");
  await pty.waitFor((screen) => screen.split("test request now?").length > 2);
  await pty.type("y");
  await pty.press("Enter");
  await pty.waitFor("mock-model answered.");
  await pty.waitFor("Ctrl-C cancels");
  expect(await pty.screen({ history: true })).not.toContain(KEY);
  expect(await pty.screen({ history: true })).not.toContain("firstrun");

  const auth = join(home.cfg, "auth.json");
  expect(statSync(auth).mode & 0o777).toBe(0o600);
  expect(JSON.parse(readFileSync(auth, "utf8"))).toEqual({ openai: KEY });
  expect(JSON.parse(readFileSync(join(home.cfg, "config.json"), "utf8"))).toEqual({
    stream_idle_timeout_ms: 60_000,
    provider: "openai",
    model: "mock-model",
    base_url: mock.url,
    models: { "mock-model": { context_window: 100_000 } },
  });
  // The session runs on what was saved: the key goes to the server, the answer comes back.
  await pty.type("hi there");
  await pty.press("Enter");
  await pty.waitFor("hello from the model");
  expect(mock.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
  // Nothing of the key reaches the session's files either.
  const grep = spawnSync("grep", ["-rl", KEY, join(home.root, "data")], { encoding: "utf8" });
  expect(grep.stdout).toBe("");
}, 90_000);

test("Ctrl-C in the setup leaves the config directory as it was", async () => {
  const home = freshHome();
  root = home.root;
  pty = await Pty.start({ argv: [process.execPath, MAIN, "--workspace", home.ws], env: home.env });
  await choose(pty, "Which models do you use?", "OpenAI");
  await pty.waitFor("Paste your API key");
  await pty.type("sk-half");
  await pty.press("C-c");
  await pty.waitFor("setup cancelled; nothing was saved");
  await pty.waitExit();
  expect(readFileSync(join(home.cfg, "config.json"), "utf8")).toBe(
    JSON.stringify({ stream_idle_timeout_ms: 60_000 }),
  );
  expect(() => statSync(join(home.cfg, "auth.json"))).toThrow();
}, 60_000);

test("without a terminal: the one-line error, exit 2, no question", async () => {
  const home = freshHome();
  root = home.root;
  const r = await runCliAsync(["--workspace", home.ws], home.env);
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toContain("no model chosen");
});

test("i auth login for Bedrock in a terminal: the AWS profiles found, an unknown one refused in one line, region, a signed test request; i auth status shows profile and region", async () => {
  const identity = { accessKeyId: "AKIDPTYTEST0001", secretAccessKey: "ptySecret/0123456789EXAMPLEKEY" };
  mock = await startMockServer({ script: [{ text: "ok" }], aws: { identity, region: "us-west-2" } });
  const home = freshHome();
  root = home.root;
  const creds = join(home.root, "aws-credentials");
  writeFileSync(
    creds,
    `[team]\naws_access_key_id = ${identity.accessKeyId}\naws_secret_access_key = ${identity.secretAccessKey}\nregion = us-west-2\n`,
  );
  const env = {
    ...home.env,
    AWS_SHARED_CREDENTIALS_FILE: creds,
    AWS_CONFIG_FILE: join(home.root, "no-aws-config"),
    AWS_ENDPOINT_URL_BEDROCK_RUNTIME: mock.url,
  };
  pty = await Pty.start({ argv: [process.execPath, MAIN, "auth", "login"], env, cols: 140, rows: 50 });
  await choose(pty, "Which models do you use?", "Amazon Bedrock");
  await choose(pty, "Which AWS credentials?", "another profile");
  await answer(pty, "AWS profile name", "nosuch");
  await pty.waitFor('AWS profile "nosuch" is not in');
  await pty.waitFor((s) => s.split("Which AWS credentials?").length > 2);
  await choose(pty, "Which AWS credentials?", "profile team");
  await answer(pty, "AWS region [us-west-2]", "");
  await choose(pty, "Which model?", "us.amazon.nova-lite-v1:0");
  await answer(pty, "test request now?", "y");
  await pty.waitFor("us.amazon.nova-lite-v1:0 answered.");
  await pty.waitFor("saved ");
  await pty.waitExit();
  expect(await pty.exitStatus()).toBe(0);
  expect(await pty.screen({ history: true })).not.toContain(identity.secretAccessKey);
  const text = readFileSync(join(home.cfg, "config.json"), "utf8");
  expect(JSON.parse(text)).toEqual({
    stream_idle_timeout_ms: 60_000,
    provider: "bedrock",
    model: "us.amazon.nova-lite-v1:0",
    bedrock: { region: "us-west-2", profile: "team" },
  });
  expect(text).not.toContain(identity.secretAccessKey);
  const status = await runCliAsync(["auth", "status"], env);
  expect(status.stdout).toContain(`bedrock: credentials found: ${creds} [team], region us-west-2\n`);
  expect(status.stdout).not.toContain(identity.secretAccessKey);
}, 90_000);
