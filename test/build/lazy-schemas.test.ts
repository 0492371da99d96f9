// The build's lazy ACP schemas: every schema of the SDK's module wrapped, each request an agent receives
// accepted and rejected exactly as by the module as it ships, and a module laid out otherwise refused.
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { lazySchemas } from "../../scripts/release/lazy-schemas.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";

const dist = join(dirname(fileURLToPath(import.meta.resolve("@agentclientprotocol/sdk"))), "..", "..");
const source = readFileSync(join(dist, "v1", "schema", "zod.gen.js"), "utf8");
const dir = tempDir("i-lazy-schemas-");
afterAll(() => removeDir(dir));

type Schema = { safeParse(v: unknown): { success: boolean; data?: unknown; error?: { issues: unknown[] } } };

/** The module's text loaded from a scratch file, its imports pointed at the SDK and zod it came with. */
async function load(
  name: string,
  code: string,
): Promise<Record<string, Schema & { _zod: { def: { type: string } } }>> {
  const file = join(dir, `${name}.js`);
  writeFileSync(
    file,
    code
      .replace(
        '"../../core/schema-deserialize.js"',
        JSON.stringify(join(dist, "core", "schema-deserialize.js")),
      )
      .replace('"zod/v4"', JSON.stringify(fileURLToPath(import.meta.resolve("zod/v4")))),
  );
  return import(file);
}

const REQUESTS: [string, unknown][] = [
  [
    "zInitializeRequest",
    { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true }, terminal: true } },
  ],
  ["zInitializeRequest", { protocolVersion: "one" }],
  [
    "zNewSessionRequest",
    {
      cwd: "/w",
      mcpServers: [
        { name: "a", command: "b", args: [], env: [{ name: "K", value: "v" }] },
        { type: "http", name: "h", url: "http://x", headers: [] },
        { type: "sse", name: "s", url: "http://y", headers: [] },
      ],
    },
  ],
  ["zNewSessionRequest", { cwd: 3 }],
  [
    "zPromptRequest",
    {
      sessionId: "s",
      prompt: [
        { type: "text", text: "hi", annotations: { priority: 1 } },
        { type: "image", data: "AAA", mimeType: "image/png" },
        { type: "resource", resource: { uri: "file:///a", text: "t" } },
        { type: "resource_link", uri: "file:///b", name: "b" },
      ],
    },
  ],
  ["zPromptRequest", { sessionId: "s", prompt: [{ type: "future_block", x: 1 }] }],
  ["zPromptRequest", { sessionId: "s", prompt: [{ type: "text" }] }],
  ["zLoadSessionRequest", { sessionId: "s", cwd: "/w", mcpServers: [] }],
  ["zResumeSessionRequest", { sessionId: "s", cwd: "/w" }],
  ["zListSessionsRequest", { cursor: "100" }],
  ["zCloseSessionRequest", { sessionId: "s" }],
  ["zSetSessionModeRequest", { sessionId: "s", modeId: "ask" }],
  ["zSetSessionConfigOptionRequest", { sessionId: "s", configId: "model", value: "m" }],
  ["zAuthenticateRequest", { methodId: "api-key" }],
  ["zCancelNotification", { sessionId: "s" }],
  ["zCancelNotification", {}],
];

const outcome = (s: Schema, v: unknown) => {
  const r = s.safeParse(v);
  return r.success ? { ok: r.data } : { issues: JSON.stringify(r.error?.issues) };
};

describe("lazy ACP schemas for the compiled build", () => {
  test("every schema is wrapped, and every request an agent receives parses as before", async () => {
    const { code, wrapped } = lazySchemas(source);
    expect(wrapped).toBe(source.match(/^export const z\w+ = /gm)?.length ?? -1);
    expect(wrapped).toBeGreaterThan(100);
    const [eager, lazy] = await Promise.all([load("eager", source), load("lazy", code)]);
    expect(Object.keys(lazy).sort()).toEqual(Object.keys(eager).sort());
    expect(lazy.zPromptRequest?._zod.def.type).toBe("lazy");
    for (const [name, value] of REQUESTS) {
      const a = eager[name];
      const b = lazy[name];
      if (!a || !b) throw new Error(`no schema ${name}`);
      expect({ name, ...outcome(b, value) }).toEqual({ name, ...outcome(a, value) });
    }
  });

  test("a module laid out otherwise stops the build with the reason", () => {
    expect(() => lazySchemas("const x = 1;\n")).toThrow("has no `export const z…` schemas");
    expect(() =>
      lazySchemas('import * as z from "zod/v4";\nlet y = 2;\nexport const zA = z.string();\n'),
    ).toThrow('starts with "let y = 2;"');
    expect(() => lazySchemas('import * as z from "zod/v4";\nexport const zA = z.string();\nfoo()\n')).toThrow(
      "code after zA",
    );
    expect(() => lazySchemas('import { z } from "x";\nexport const zA = z.string();\n')).toThrow(
      "does not import zod",
    );
  });
});
