// Per-turn cost of each provider's own work — building the request (URL, headers, body bytes, SigV4
// signing, the Vertex token) and parsing the reply stream — against the OpenAI path, on the same 100-turn
// run, in this process. Each wire's reply (text in many deltas, a tool call, usage) is recorded once from
// the mock model server, then replayed from memory by the provider's injected fetch, so no socket or
// server time is in the figures: only the provider's code. The history grows by one tool turn (an
// assistant tool call and a ~1.5 KB tool result) per request, with the same message objects kept from one
// request to the next, as a session keeps them. The floor is the replayed fetch alone (make the response,
// read every chunk). Runs interleave the wires turn by turn, so all see the same machine.
// Target: each provider within 0.5 ms per turn of OpenAI.
//   bun scripts/bench/providers.ts [--turns 100] [--runs 5] [--only bedrock,gemini]
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { History, Message } from "../../src/contract/history.ts";
import type { ToolDecl } from "../../src/contract/protocol.ts";
import { type CreateProviderOptions, createProvider, type Provider } from "../../src/provider/index.ts";
import { type MockStep, startMockServer } from "../../test/fixtures/mock-server/index.ts";
import { fmt, median } from "./stats.ts";

const { values } = parseArgs({
  options: {
    turns: { type: "string", default: "100" },
    runs: { type: "string", default: "5" },
    /** only these wires (and openai, the baseline), e.g. for a CPU profile of one */
    only: { type: "string" },
  },
});
const TURNS = Number(values.turns);
const RUNS = Number(values.runs);

const AWS = {
  accessKeyId: "AKIDEXAMPLEBENCH0001",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYBENCHKEY",
};
const EMAIL = "bench@bench-project.iam.gserviceaccount.com";
const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const dir = mkdtempSync(join(tmpdir(), "i-bench-providers-"));

/** The reply of every turn: a paragraph streamed in deltas, then one tool call. */
const STEP: MockStep = {
  text: "I will read the next module and check its exports against the tests before changing anything. ".repeat(
    4,
  ),
  tool_calls: [{ name: "read", arguments: { path: "src/module.ts", offset: 1, limit: 200 } }],
};

const TOOLS: ToolDecl[] = Array.from({ length: 10 }, (_, i) => ({
  name: i === 0 ? "read" : `tool_${i}`,
  description: `tool number ${i}: does one thing to the workspace and says what it did`,
  input_schema: {
    type: "object",
    additionalProperties: false,
    properties: {
      path: { type: "string", description: "a path inside the workspace" },
      offset: { type: "integer", minimum: 1 },
      limit: { type: "integer", minimum: 1 },
      mode: { type: "string", enum: ["text", "bytes"] },
    },
    required: ["path"],
  },
}));

const LINE = "  const value = compute(input, options); // keep the result for the next step\n";
/** system + user, then per turn an assistant tool call and its result: each request sees one turn more. */
function history(turns: number): History {
  const h: Message[] = [
    { role: "system", content: "You are a coding agent working in a test workspace. ".repeat(40) },
    { role: "user", content: "Review every module under src/ and report what to change." },
  ];
  for (let t = 0; t < turns; t++) {
    const id = `call_${t}`;
    h.push({
      role: "assistant",
      content: `Reading module ${t}.`,
      tool_calls: [{ id, name: "read", arguments: JSON.stringify({ path: `src/module-${t}.ts` }) }],
    });
    h.push({ role: "tool", tool_call_id: id, content: LINE.repeat(20) });
  }
  return h;
}

interface Wire {
  name: string;
  model: string;
  options(url: string): Omit<CreateProviderOptions, "apiKey">;
}

function vertexEnv(url: string): Record<string, string> {
  const file = join(dir, `sa-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      type: "service_account",
      project_id: "bench-project",
      private_key: keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      client_email: EMAIL,
      token_uri: `${url}/token`,
    }),
  );
  return { GOOGLE_APPLICATION_CREDENTIALS: file, GOOGLE_CLOUD_LOCATION: "us-central1", HOME: dir };
}

const awsEnv = {
  AWS_ACCESS_KEY_ID: AWS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: AWS.secretAccessKey,
  AWS_REGION: "us-west-2",
  HOME: dir,
};

const ALL_WIRES: Wire[] = [
  { name: "openai", model: "gpt-4.1", options: (url) => ({ provider: "openai", baseUrl: `${url}/v1` }) },
  {
    name: "anthropic",
    model: "claude-sonnet-4-5",
    options: (url) => ({ provider: "anthropic", baseUrl: url }),
  },
  { name: "gemini", model: "gemini-2.5-pro", options: (url) => ({ provider: "gemini", baseUrl: url }) },
  {
    name: "vertex gemini",
    model: "gemini-2.5-pro",
    options: (url) => ({ provider: "vertex", baseUrl: url, env: vertexEnv(url) }),
  },
  {
    name: "vertex claude",
    model: "claude-sonnet-4-5@20250929",
    options: (url) => ({ provider: "vertex", baseUrl: url, env: vertexEnv(url) }),
  },
  {
    name: "bedrock",
    model: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    options: (url) => ({ provider: "bedrock", baseUrl: url, env: awsEnv }),
  },
  {
    name: "azure",
    model: "gpt-4.1",
    options: (url) => ({
      provider: "azure",
      env: { AZURE_OPENAI_ENDPOINT: url },
      cloud: { azure: { deployment: "bench" } },
    }),
  },
  {
    name: "openrouter",
    model: "anthropic/claude-sonnet-4.5",
    options: (url) => ({ provider: "openrouter", baseUrl: `${url}/v1` }),
  },
];

const only = values.only?.split(",");
const WIRES = ALL_WIRES.filter((w) => !only || w.name === "openai" || only.includes(w.name));

interface Recorded {
  status: number;
  headers: [string, string][];
  chunks: Uint8Array[];
}

/** Every response of one real exchange with the mock, keyed by path (the model stream, Vertex's /token). */
async function record(wire: Wire, url: string): Promise<Map<string, Recorded>> {
  const seen = new Map<string, Recorded>();
  const recording = async (input: RequestInfo | URL, init?: RequestInit) => {
    const res = await fetch(input, init);
    const chunks: Uint8Array[] = [];
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    seen.set(new URL(String(input)).pathname, { status: res.status, headers: [...res.headers], chunks });
    return replayed(seen.get(new URL(String(input)).pathname) as Recorded);
  };
  const p = createProvider({
    apiKey: "k-bench-0123456789",
    maxRetries: 0,
    ...wire.options(url),
    fetch: recording as typeof fetch,
  });
  const res = await p.stream({ model: wire.model, messages: history(1), tools: TOOLS });
  if (res.stop !== "tool_calls") throw new Error(`${wire.name}: the recorded reply stopped with ${res.stop}`);
  return seen;
}

function replayed(r: Recorded): Response {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of r.chunks) c.enqueue(chunk);
      c.close();
    },
  });
  return new Response(body, { status: r.status, headers: r.headers });
}

function replay(seen: Map<string, Recorded>): typeof fetch {
  const f = async (input: RequestInfo | URL) => {
    const r = seen.get(new URL(String(input)).pathname);
    if (!r) throw new Error(`nothing recorded for ${String(input)}`);
    return replayed(r);
  };
  return f as typeof fetch;
}

const server = await startMockServer({
  script: () => STEP,
  deployments: ["bench"],
  aws: { identity: AWS, region: "us-west-2" },
  google: {
    publicKeyPem: keys.publicKey.export({ type: "spki", format: "pem" }).toString(),
    clientEmail: EMAIL,
  },
});
const recordings = new Map<string, Map<string, Recorded>>();
for (const w of WIRES) recordings.set(w.name, await record(w, server.url));
await server.close();

const providers = new Map<string, Provider>(
  WIRES.map((w) => [
    w.name,
    createProvider({
      apiKey: "k-bench-0123456789",
      maxRetries: 0,
      ...w.options(server.url),
      fetch: replay(recordings.get(w.name) as Map<string, Recorded>),
    }),
  ]),
);

const FLOOR = "floor";
const full = history(TURNS);
const noop = () => {};

/** One turn of one wire, in ms: the whole stream() call, or the floor's replayed fetch read to its end. */
async function turn(name: string, messages: History): Promise<number> {
  const t0 = performance.now();
  if (name === FLOOR) {
    const res = replayed([...(recordings.get("openai") as Map<string, Recorded>).values()][0] as Recorded);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    while (!(await reader.read()).done) {}
  } else {
    const wire = WIRES.find((w) => w.name === name) as Wire;
    await (providers.get(name) as Provider).stream({ model: wire.model, messages, tools: TOOLS }, noop);
  }
  return performance.now() - t0;
}

const names = [FLOOR, ...WIRES.map((w) => w.name)];
// samples[name][turn] = one figure per run
const samples = new Map(names.map((n) => [n, Array.from({ length: TURNS }, () => [] as number[])]));
for (let run = -1; run < RUNS; run++) {
  // One history array per run that grows turn by turn, as a session's does (caches keyed on it resume).
  const live: Message[] = full.slice(0, 2);
  for (let t = 0; t < TURNS; t++) {
    // Rotate the order each turn so no wire always runs right after a collection-heavy one.
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + t) % names.length] as string;
      const ms = await turn(name, live);
      if (run >= 0) (samples.get(name) as number[][])[t]?.push(ms);
    }
    live.push(full[2 + 2 * t] as Message, full[3 + 2 * t] as Message);
  }
}
rmSync(dir, { recursive: true, force: true });

/** Per turn, the median over runs. */
const perTurn = (name: string) => (samples.get(name) as number[][]).map(median);
const base = perTurn("openai");
const tenth = Math.max(1, Math.floor(TURNS / 10));
console.log(
  `${TURNS} turns × ${RUNS} runs (history ${fmt(JSON.stringify(full).length / 1024, 0)} KiB at the last turn), ${process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.versions.node}`}`,
);
console.log(
  "wire            per turn (median)   first tenth   last tenth   vs openai (median of per-turn differences)",
);
for (const name of names) {
  const xs = perTurn(name);
  const diff = median(xs.map((x, i) => x - (base[i] as number)));
  console.log(
    `${name.padEnd(16)}${fmt(median(xs), 3).padStart(8)} ms${fmt(median(xs.slice(0, tenth)), 3).padStart(14)}${fmt(median(xs.slice(-tenth)), 3).padStart(13)}   ${name === "openai" || name === FLOOR ? "" : `${diff >= 0 ? "+" : ""}${fmt(diff, 3)} ms${Math.abs(diff) <= 0.5 ? "" : "  OVER 0.5 ms"}`}`,
  );
}
