// The floor of one agent turn, for scripts/bench/turns.ts: the least work any agent must do between two
// model requests, in the same runtime as `i`, with no agent around it. Each turn: POST the whole
// conversation as an OpenAI chat request (the same system prompt and tool list `i` sent, read from
// SHAPE.json), read the SSE reply, run the tool call's command with bash -c (own process group, output
// piped, as `i` runs it; a read call's file is read instead), append the assistant message and the tool result to the conversation and as
// one line to a log file, then send the next request. Stops at the first reply without a tool call.
//   bun scripts/bench/turn-floor.ts URL SHAPE.json LOG_FILE
import { spawn } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";
import type { Shape } from "./agent-run.ts";

interface Call {
  id: string;
  name: string;
  arguments: string;
}

const [url, shapeFile, logFile] = process.argv.slice(2);
if (!url || !shapeFile || !logFile) {
  process.stderr.write("usage: turn-floor.ts URL SHAPE.json LOG_FILE\n");
  process.exit(2);
}
const shape = JSON.parse(readFileSync(shapeFile, "utf8")) as Shape;

/** One streamed chat completion: the tool calls it made (assembled by index), none at the end. */
async function request(messages: unknown[]): Promise<Call[]> {
  const body: Record<string, unknown> = {
    model: shape.model,
    messages,
    stream: true,
    stream_options: { include_usage: true },
    tools: shape.tools,
  };
  if (shape.max_tokens !== undefined) body.max_tokens = shape.max_tokens;
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer floor" },
    body: JSON.stringify(body),
  });
  if (!res.ok || !res.body) throw new Error(`floor: HTTP ${res.status}`);
  const calls: Call[] = [];
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of res.body) {
    buffered += decoder.decode(chunk, { stream: true });
    let nl = buffered.indexOf("\n");
    while (nl >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      nl = buffered.indexOf("\n");
      if (!line.startsWith("data:")) continue;
      const payload = line.slice(5).trim();
      if (payload === "[DONE]") continue;
      const ev = JSON.parse(payload) as {
        choices?: {
          delta?: {
            tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
          };
        }[];
      };
      for (const tc of ev.choices?.[0]?.delta?.tool_calls ?? []) {
        const c = calls[tc.index] ?? { id: "", name: "", arguments: "" };
        calls[tc.index] = c;
        if (tc.id) c.id = tc.id;
        if (tc.function?.name) c.name = tc.function.name;
        if (tc.function?.arguments) c.arguments += tc.function.arguments;
      }
    }
  }
  return calls;
}

function bash(command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", command], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => out.push(b));
    child.on("error", reject);
    child.on("close", (code) => resolve(`${Buffer.concat(out).toString("utf8")}[exit code ${code}]`));
  });
}

function numbered(text: string): string {
  return text
    .split("\n")
    .map((l, i) => `${String(i + 1).padStart(6)}\t${l}`)
    .join("\n");
}

const messages: unknown[] = [
  { role: "system", content: shape.system },
  { role: "user", content: shape.prompt },
];
for (;;) {
  const calls = await request(messages);
  if (calls.length === 0) break;
  const assistant = {
    role: "assistant",
    content: null,
    tool_calls: calls.map((c) => ({
      id: c.id,
      type: "function",
      function: { name: c.name, arguments: c.arguments },
    })),
  };
  messages.push(assistant);
  const appended: unknown[] = [assistant];
  for (const c of calls) {
    // A bash call runs its command; a read call (turns.ts --tool read) reads its file, numbered as i does.
    const args = JSON.parse(c.arguments) as { command?: string; path?: string };
    const content =
      args.path !== undefined ? numbered(readFileSync(args.path, "utf8")) : await bash(args.command ?? "");
    const result = { role: "tool", tool_call_id: c.id, content };
    messages.push(result);
    appended.push(result);
  }
  appendFileSync(logFile, `${appended.map((m) => JSON.stringify(m)).join("\n")}\n`);
}
