// Every event a worker can receive has a request and a reply schema, in zod and in schemas/protocol/hooks/.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { HOOKS, mayPrecedeFirstRequest } from "../../src/contract/hooks.ts";
import { HOOK_EVENTS } from "../../src/contract/protocol.ts";
import { MODULES } from "../../src/contract/registry.ts";
import { ROOT } from "../helpers/cli.ts";

const dir = join(ROOT, "schemas", "protocol", "hooks");

describe("hook schemas", () => {
  test("every hook the registry declares, plus hello and tool, has request and reply schemas", () => {
    const declared = new Set(Object.values(MODULES).flatMap((m) => m.hooks));
    for (const h of declared) expect(HOOK_EVENTS).toContain(h);
    for (const event of [...HOOK_EVENTS, "hello", "tool"]) {
      expect(Object.keys(HOOKS)).toContain(event);
      for (const side of ["request", "reply"]) {
        const file = join(dir, `${event.replaceAll("_", "-")}-${side}.json`);
        expect(existsSync(file)).toBe(true);
        expect(JSON.parse(readFileSync(file, "utf8")).type).toBe("object");
      }
    }
  });

  test("the table says which hooks only follow a tool call, so never precede the first request", () => {
    expect(mayPrecedeFirstRequest("files_changed")).toBe(false);
    for (const h of ["system_prompt", "budget", "before_request", "session_start", "user_prompt_submit"])
      expect(mayPrecedeFirstRequest(h)).toBe(true);
    // A name the table does not have is taken to run early: a head start never leaves out a needed worker.
    expect(mayPrecedeFirstRequest("no_such_hook")).toBe(true);
    expect(mayPrecedeFirstRequest("toString")).toBe(true);
  });

  test("reply schemas accept the request data passed through and refuse what the core cannot use", () => {
    const base = { system: "You are i.", workspace: "/w", model: "m", provider: "openai", tools: ["read"] };
    expect(HOOKS.system_prompt.reply.safeParse(base).success).toBe(true);
    expect(HOOKS.system_prompt.reply.safeParse({ ...base, system: "  " }).success).toBe(false);
    expect(HOOKS.compact_plan.reply.safeParse({ cut: 3, extra: true }).success).toBe(true);
    expect(HOOKS.compact_plan.reply.safeParse({ cut: "3" }).success).toBe(false);
    expect(HOOKS.steer.reply.safeParse({ messages: [{ id: "a", text: "hi" }, "plain"] }).success).toBe(true);
    expect(HOOKS.steer.reply.safeParse({ messages: [{ text: "no id" }] }).success).toBe(false);
    expect(HOOKS.before_compact.reply.safeParse({ prompt: "" }).success).toBe(false);
    expect(
      HOOKS.wire_response.reply.safeParse({ message: { role: "user", content: "x" }, stop: "end" }).success,
    ).toBe(false);
  });
});
