// The tools' JSON Schemas are converted at build time (scripts/gen-tool-schemas.ts): each one must be what
// converting its zod schema gives now, every built-in tool must have one, and declarations must use them.
import { describe, expect, test } from "bun:test";
import { TOOL_SCHEMAS } from "../../src/contract/generated/tool-schemas.ts";
import { MODULES, TOOL_INPUTS, toolDecl, toolInputSchema } from "../../src/contract/registry.ts";
import { CORE_TOOLS, coreToolDecls } from "../../src/tools/index.ts";

const builtIn = [
  ...CORE_TOOLS.map((t) => [t.name, t.input] as const),
  ...Object.entries(TOOL_INPUTS).map(([n, i]) => [n, i] as const),
];

describe("the build-time tool schemas", () => {
  test("one per built-in tool, each equal to converting its zod schema now", () => {
    expect(Object.keys(TOOL_SCHEMAS).sort()).toEqual(builtIn.map(([n]) => n).sort());
    for (const [name, input] of builtIn)
      expect({ name, schema: TOOL_SCHEMAS[name] }).toEqual({ name, schema: toolInputSchema(input) });
  });

  test("the declarations carry them, for the core tools and the modules' tools", () => {
    for (const d of coreToolDecls())
      expect(d.input_schema).toBe(TOOL_SCHEMAS[d.name] as Record<string, unknown>);
    const grep = MODULES.search.tools.find((t) => t.name === "grep");
    if (!grep) throw new Error("the search module has no grep tool");
    expect(toolDecl(grep).input_schema).toBe(TOOL_SCHEMAS.grep as Record<string, unknown>);
  });
});
