// lsp tests: the agent rig with the real language servers installed as dev dependencies
// (typescript-language-server over TypeScript 5.9's tsserver, pyright) or fixture servers, found on PATH.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
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

export const FAKE = join(FIXTURES, "fake-server.mjs");

/** lsp.json with one fake server (fixtures/fake-server.mjs in `mode`) for files ending in .fk. */
export function fakeConfig(mode: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    servers: { fake: { command: process.execPath, args: [FAKE, mode], extensions: [".fk"], ...extra } },
  };
}

/** The notices a --json run printed. */
export function notices(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { type: string; message?: string })
    .filter((e) => e.type === "notice")
    .map((e) => e.message ?? "");
}

/** Alive and not a zombie (a zombie has exited; whoever adopted it reaps it). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Every process below `root` (children, their children, ...), from /proc. */
export function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync("/proc").filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parent.set(Number(d), ppid);
    } catch {}
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [pid, pp] of parent)
      if (pp === p) {
        out.push(pid);
        walk(pid);
      }
  };
  walk(root);
  return out;
}
