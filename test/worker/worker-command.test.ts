// `i worker MODULE[,MODULE…]`: serves built-in modules on stdio; bad names are one line and exit 2.
import { describe, expect, test } from "bun:test";
import { MODULE_NAMES, MODULES, moduleToolDecls } from "../../src/contract/registry.ts";
import { runCli } from "./cli-run.ts";

const env = { I_CONFIG_DIR: "/nonexistent-config", I_DATA_DIR: "/nonexistent-data" };
const line = (o: unknown) => `${JSON.stringify(o)}\n`;

describe("i worker", () => {
  test("serves a built-in module over NDJSON until stdin ends", async () => {
    const input =
      line({
        id: 1,
        event: "hello",
        workspace: "/w",
        data: { protocol: 1, module: "cache" },
        module: "cache",
      }) +
      line({
        id: 2,
        event: "before_request",
        workspace: "/w",
        data: { provider: "anthropic", messages: [{ role: "system" }] },
      }) +
      line({ id: 3, event: "doctor_ping", workspace: "/w", data: { x: 1 } });
    const r = await runCli(["worker", "cache"], env, input);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    // Replies come in the order they complete; ids pair them with requests.
    const replies = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l))
      .sort((a, b) => a.id - b.id);
    expect(replies).toEqual([
      {
        id: 1,
        data: {
          protocol: 1,
          module: "cache",
          hooks: ["before_request"],
          tools: [],
          payloads: { before_request: "summary" },
        },
      },
      {
        id: 2,
        data: { provider: "anthropic", messages: [{ role: "system" }], hints: { cache_breakpoints: [0] } },
      },
      { id: 3, data: { x: 1 } },
    ]);
  });

  test("unknown, empty and repeated module names: one clear line, exit 2", async () => {
    for (const [arg, message] of [
      ["nope", /^i worker: unknown module "nope"; built-in modules are: budget, /],
      ["cache,", /^i worker: an empty module name; built-in modules are: /],
      ["cache,cache", /^i worker: module "cache" is listed twice; name each module once$/],
    ] as const) {
      const r = await runCli(["worker", arg], env);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      const lines = r.stderr.trimEnd().split("\n");
      expect(lines.length).toBe(1);
      expect(lines[0]).toMatch(message);
    }
    const none = await runCli(["worker"], env);
    expect(none.code).toBe(2);
    expect(none.stderr.trimEnd().split("\n").length).toBe(1);
  });

  test("one process serves every built-in module; each hello matches the registry's declarations", async () => {
    const input = MODULE_NAMES.map((module, i) =>
      line({ id: i + 1, event: "hello", workspace: "/w", data: { protocol: 1, module }, module }),
    ).join("");
    const r = await runCli(
      ["worker", MODULE_NAMES.join(","), "--queue", "/nonexistent-data/q.jsonl"],
      env,
      input,
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const replies = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(replies).toHaveLength(MODULE_NAMES.length);
    for (const reply of replies) {
      const module = MODULE_NAMES[reply.id - 1] as (typeof MODULE_NAMES)[number];
      expect(reply.data.module).toBe(module);
      expect(new Set(reply.data.hooks)).toEqual(new Set(MODULES[module].hooks));
      // A dynamic description (the task tool lists the agents) starts with the registry's; the rest is exact.
      const want = moduleToolDecls(module);
      expect(reply.data.tools.map((t: { name: string }) => t.name)).toEqual(want.map((t) => t.name));
      for (const [i, t] of want.entries()) {
        expect(reply.data.tools[i].input_schema).toEqual(t.input_schema);
        expect(reply.data.tools[i].description.startsWith(t.description)).toBe(true);
      }
    }
  });
});
