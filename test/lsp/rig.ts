// lsp tests: the agent rig with the real language servers installed as dev dependencies
// (typescript-language-server over TypeScript 5.9's tsserver, pyright) or fixture servers, found on PATH.
import { writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { makeRig, type Rig, type RigOptions } from "../agent/rig.ts";
import { ROOT } from "../helpers/cli.ts";

export const BIN = join(ROOT, "node_modules/.bin");
/** typescript 7 ships no tsserver: the language server is pointed at 5.9's (its own package). */
export const TSSERVER = join(ROOT, "test/fixtures/lsp-tsserver/node_modules/typescript/lib/tsserver.js");
export const FIXTURES = join(import.meta.dirname, "fixtures");
export const PATH_WITH_SERVERS = `${BIN}${delimiter}${process.env.PATH ?? ""}`;

export const TS_CONFIG = {
  servers: { typescript: { initialization_options: { tsserver: { path: TSSERVER } } } },
};

export async function lspRig(opts: RigOptions & { lsp?: Record<string, unknown> }): Promise<Rig> {
  const rig = await makeRig(opts);
  writeFileSync(join(rig.configDir, "lsp.json"), JSON.stringify(opts.lsp ?? TS_CONFIG));
  rig.env.PATH = PATH_WITH_SERVERS;
  return rig;
}

/** The tool messages the model was sent in its last request, by content text. */
export function toolResults(rig: Rig): string[] {
  const last = rig.mock.requests.at(-1) as
    | { body?: { messages?: { role: string; content: unknown }[] } }
    | undefined;
  return (last?.body?.messages ?? [])
    .filter((m) => m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}
