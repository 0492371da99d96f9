// A build step for `i acp`'s memory: the ACP SDK builds all of its ~180 protocol schemas (over a thousand
// zod objects, ~2.5 MB of heap) when it loads, though an agent only ever checks the dozen requests it
// receives. The compiled executable gets the SDK's schema module with every export wrapped in zod's own
// `z.lazy`, so a schema is built when a request first needs it; what each accepts and rejects is the same.
// Source runs (tests, Deno) use the SDK as it ships.
import type { BunPlugin } from "bun";

/** The SDK's generated schema module (one `export const zName = …;` per schema, nothing else at top level). */
export const SCHEMA_MODULE = /[\\/]@agentclientprotocol[\\/]sdk[\\/]dist[\\/]v1[\\/]schema[\\/]zod\.gen\.js$/;

const EXPORT = /^export const (z\w+) = /gm;

/**
 * Every `export const zX = EXPR;` as `export const zX = z.lazy(() => EXPR);`. Throws when the module is not
 * laid out as expected (a statement that is not such an export), so an SDK update cannot silently
 * produce a broken build.
 */
export function lazySchemas(src: string): { code: string; wrapped: number } {
  const starts = [...src.matchAll(EXPORT)];
  if (starts.length === 0) throw new Error("the ACP SDK's schema module has no `export const z…` schemas");
  const head = src.slice(0, starts[0]?.index);
  const stray = head.split("\n").find((l) => !/^(import |\/\/|\/\*|\s*\*|\s*$)/.test(l));
  if (stray !== undefined) throw new Error(`the ACP SDK's schema module starts with "${stray}", not imports`);
  if (!/^import \* as z from "zod(\/v4)?";$/m.test(head))
    throw new Error("the ACP SDK's schema module does not import zod as `z`");
  let code = head;
  for (const [i, m] of starts.entries()) {
    const body = (m.index as number) + m[0].length;
    const next = starts[i + 1]?.index ?? src.length;
    const region = src.slice(body, next);
    // The statement ends at its last `;` before the next schema's doc comment (or the source map line).
    const tail = region.search(/\n\/[*/]/);
    const end = region.lastIndexOf(";", tail < 0 ? region.length : tail);
    if (end < 0) throw new Error(`the ACP SDK's schema ${m[1]} has no end`);
    const after = region.slice(end + 1, tail < 0 ? region.length : tail);
    if (after.trim() !== "")
      throw new Error(`the ACP SDK's schema module has code after ${m[1]}: "${after.trim().slice(0, 60)}"`);
    code += `${m[0]}z.lazy(() => ${region.slice(0, end)})${region.slice(end)}`;
  }
  return { code, wrapped: starts.length };
}

export const lazySchemasPlugin: BunPlugin = {
  name: "acp-lazy-schemas",
  setup(build) {
    build.onLoad({ filter: SCHEMA_MODULE }, async (args) => {
      const { readFileSync } = await import("node:fs");
      return { contents: lazySchemas(readFileSync(args.path, "utf8")).code, loader: "js" };
    });
  },
};
