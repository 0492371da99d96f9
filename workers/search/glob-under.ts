// A glob for grep and find, read relative to the directory searched (`find path=src pattern=components/*.tsx`
// means src/components/*.tsx, as ripgrep and fd read it) and, for the patterns models wrote before, also
// against the workspace-relative path (`src/**/*.ts` with path=src still finds src/a.ts).
import { compileGlob } from "../../src/lib/glob.ts";

export type PathGlob = { ok: true; match: (workspaceRel: string) => boolean } | { ok: false; error: string };

export function compilePathGlob(glob: string, startRel: string): PathGlob {
  let m: (rel: string) => boolean;
  try {
    m = compileGlob(glob);
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
  if (startRel === "") return { ok: true, match: m };
  const prefix = `${startRel}/`;
  return {
    ok: true,
    match: (rel) => m(rel) || (rel.startsWith(prefix) && m(rel.slice(prefix.length))),
  };
}
