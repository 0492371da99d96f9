// The whole compaction path on the cloud wires, through the real CLI: a tool loop on Gemini (signed function
// calls), a context overflow in the provider's own wording, a summary request on the same wire, and the
// retried request starting from the summary with the recent turns kept.
import { afterEach, expect, test } from "bun:test";
import type { MockStep, RecordedRequest } from "../fixtures/mock-server/script.ts";
import { events, makeRig, type Rig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const isSummaryRequest = (req: RecordedRequest) => {
  // Gemini declares tools in `tools`, Bedrock in `toolConfig.tools`; the summariser is offered none.
  const body = req.body as { tools?: unknown[]; toolConfig?: { tools?: unknown[] } };
  return (body.tools ?? body.toolConfig?.tools ?? []).length === 0;
};

function overflowScript(): (req: RecordedRequest) => MockStep {
  let turns = 0;
  let overflowed = false;
  return (req) => {
    if (isSummaryRequest(req)) return { text: "## Goal\nList files.\n## Progress\nSix listings done." };
    if (turns < 6) {
      turns++;
      const command = `echo listing ${turns} ${"row ".repeat(300)}`;
      return { reasoning: `turn ${turns}`, tool_calls: [{ name: "bash", arguments: { command } }] };
    }
    if (!overflowed) {
      overflowed = true;
      return { error: "overflow" };
    }
    return { text: "recovered" };
  };
}

function expectRecovered(r: { code: number; stdout: string; stderr: string }): void {
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const evs = events(r.stdout);
  expect(evs.at(-1)).toMatchObject({ type: "done", text: "recovered" });
  expect(evs.filter((e) => e.type === "compaction" && e.phase === "done")).toEqual([
    expect.objectContaining({ reason: "overflow", route: "model" }),
  ]);
}

test("gemini: overflow in Gemini's words → one summary request on the Gemini wire → the retried request", async () => {
  rig = await makeRig({ provider: "gemini", model: "gemini-2.5-flash", script: overflowScript() });
  const r = await rig.run(["-p", "list things", "--approve", "all", "--json"]);
  expectRecovered(r);
  const reqs = rig.mock.requests;
  const summaries = reqs.filter(isSummaryRequest);
  expect(summaries).toHaveLength(1);
  expect(summaries[0]?.path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent");
  const transcript = JSON.stringify(summaries[0]?.body);
  expect(transcript).toContain("listing 1");
  // Private wire state (thought signatures) never reaches the summariser.
  expect(transcript).not.toContain("thoughtSignature");
  const retried = JSON.stringify(reqs.at(-1)?.body);
  expect(retried).toContain("Six listings done.");
  expect(retried).toContain("listing 6");
});

test("bedrock: overflow in Bedrock's words → one signed summary request on Converse → the retried request", async () => {
  const identity = {
    accessKeyId: "AKIDRIGTEST00000001",
    secretAccessKey: "rig-secret-0123456789abcdefghijklmnop",
  };
  rig = await makeRig({
    provider: "bedrock",
    model: "us.anthropic.claude-haiku-4-5-20251001-v1:0",
    script: overflowScript(),
    aws: { identity, region: "eu-central-1" },
    env: {
      AWS_ACCESS_KEY_ID: identity.accessKeyId,
      AWS_SECRET_ACCESS_KEY: identity.secretAccessKey,
      AWS_REGION: "eu-central-1",
    },
  });
  const r = await rig.run(["-p", "list things", "--approve", "all", "--json"]);
  expectRecovered(r);
  const reqs = rig.mock.requests;
  const summaries = reqs.filter(isSummaryRequest);
  expect(summaries).toHaveLength(1);
  expect(summaries[0]?.path).toBe("/model/us.anthropic.claude-haiku-4-5-20251001-v1%3A0/converse-stream");
  expect(summaries[0]?.headers.authorization).toContain("/eu-central-1/bedrock/aws4_request");
  expect(JSON.stringify(summaries[0]?.body)).toContain("listing 1");
  const retried = JSON.stringify(reqs.at(-1)?.body);
  expect(retried).toContain("Six listings done.");
  expect(retried).toContain("listing 6");
});
