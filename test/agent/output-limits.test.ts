// Output the model can get back, through the real CLI and the mock model: a cut bash output is read back
// from the file the result names; a reply cut by the output limit inside a tool call does not run it.
import { afterEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CUT_CALL_MESSAGE } from "../../src/agent/cut-call.ts";
import type { RecordedRequest } from "../fixtures/mock-server/index.ts";
import { makeRig, type Rig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const lastToolResult = (req: RecordedRequest): string => {
  const messages = (req.body as { messages: { role: string; content: unknown }[] }).messages;
  const tool = messages.filter((m) => m.role === "tool").at(-1);
  return typeof tool?.content === "string" ? tool.content : JSON.stringify(tool?.content);
};

test("a cut bash output is read back from the saved file", async () => {
  rig = await makeRig({
    script: (req, index) => {
      if (index === 0) return { tool_calls: [{ name: "bash", arguments: { command: "seq 1 30000" } }] };
      if (index === 1) {
        const path = /is saved in (\S+):/.exec(lastToolResult(req))?.[1] ?? "no path given";
        return { tool_calls: [{ name: "read", arguments: { path, offset: 15000, limit: 3 } }] };
      }
      return { text: lastToolResult(req) };
    },
  });
  const r = await rig.run(["-p", "count", "--approve", "all"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toStartWith("15000\t15000\n15001\t15001\n15002\t15002\n");
  // The line the read shows was cut from the bash result itself.
  expect(lastToolResult(rig.mock.requests[1] as RecordedRequest)).not.toContain("\n15000\n");
});

for (const provider of ["openai", "anthropic"] as const) {
  test(`a reply cut inside a tool call (${provider}): the call is not run and the model is told`, async () => {
    rig = await makeRig({
      provider,
      script: [
        {
          tool_calls: [
            { name: "bash", arguments: { command: "echo first-ran > first.txt" } },
            { name: "write", arguments: '{"path":"big.txt","content":"line 1\\nline 2\\nli' },
          ],
          stop: "length",
        },
        { text: "ok, in parts then" },
      ],
    });
    const r = await rig.run(["-p", "write a big file", "--approve", "all"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("ok, in parts then\n");
    expect(r.stderr).toContain(
      "the reply reached the output limit in the middle of a write call; it was not run",
    );
    expect(existsSync(join(rig.workspace, "first.txt"))).toBe(true);
    expect(existsSync(join(rig.workspace, "big.txt"))).toBe(false);
    const body = JSON.stringify(rig.mock.requests[1]?.body);
    expect(body).toContain(CUT_CALL_MESSAGE);
    expect(body).not.toContain("not valid JSON");
    expect(rig.mock.requests).toHaveLength(2);
  });
}
