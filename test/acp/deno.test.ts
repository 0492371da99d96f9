// `i acp` runs unmodified under Deno 2 too: a prompt with a tool call, through the SDK's client.
import { afterEach, expect, test } from "bun:test";
import { DENO_RUN } from "../helpers/deno.ts";
import {
  type AcpRig,
  agentText,
  initialize,
  newSession,
  prompt,
  startAcp,
  until,
  updatesOf,
} from "./harness.ts";

let a: AcpRig | undefined;
afterEach(async () => {
  await a?.close();
  a = undefined;
});

test("under Deno: initialize, session/new, a prompt with a read", async () => {
  a = await startAcp({
    script: [{ tool_calls: [{ name: "read", arguments: { path: "a.txt" } }] }, { text: "deno acp done" }],
    files: { "a.txt": "alpha\n" },
    runner: [...DENO_RUN],
  });
  expect((await initialize(a)).protocolVersion).toBe(1);
  const s = await newSession(a);
  expect((await prompt(a, s.sessionId, "read a.txt")).stopReason).toBe("end_turn");
  await until(() => agentText(a as AcpRig) === "deno acp done");
  expect(updatesOf(a, "tool_call")[0]).toMatchObject({ kind: "read", title: "Read a.txt" });
}, 60_000);
