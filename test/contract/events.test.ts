// The `--json` stream is a public contract: every line of a real session (tool loop, both wire families)
// must match the AgentEvent schema the JSON Schema in schemas/events.json is generated from.
import { afterEach, describe, expect, test } from "bun:test";
import { AgentEvent } from "../../src/contract/events.ts";
import { makeRig, type Rig } from "../agent/rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const script = [
  { tool_calls: [{ name: "read", arguments: { path: "notes.txt" } }] },
  { tool_calls: [{ name: "bash", arguments: { command: "echo from-bash" } }] },
  { tool_calls: [{ name: "read", arguments: { path: "missing.txt" } }] },
  { text: "All done." },
];

describe("--json events", () => {
  for (const provider of ["openai", "anthropic"] as const) {
    test(`${provider}: every line of a tool-loop session matches the AgentEvent schema`, async () => {
      rig = await makeRig({ script, provider, files: { "notes.txt": "a note\n" } });
      const r = await rig.run(["-p", "read the notes and run a command", "--json"]);
      expect(r.code).toBe(0);
      const lines = r.stdout.split("\n").filter((l) => l !== "");
      const types = new Set<string>();
      for (const line of lines) {
        const parsed = AgentEvent.safeParse(JSON.parse(line));
        if (!parsed.success) throw new Error(`${line.slice(0, 200)}: ${parsed.error.message}`);
        types.add(parsed.data.type);
      }
      for (const t of [
        "session",
        "turn_start",
        "text_delta",
        "assistant",
        "tool_call",
        "tool_result",
        "done",
      ])
        expect(types).toContain(t);
    });
  }

  test("the schema rejects an event the stream never sends", () => {
    expect(AgentEvent.safeParse({ type: "done", text: "x", turns: 1 }).success).toBe(false);
    expect(AgentEvent.safeParse({ type: "telemetry" }).success).toBe(false);
  });
});
