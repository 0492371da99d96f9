// Which modules took part in a compaction, for its record in events.jsonl: a replaced compactor is named
// with its executable, so a later reader can tell which implementation wrote a summary.
import type { Manifest } from "../contract/manifest.ts";

const COMPACTION_HOOKS = [
  "budget",
  "compact_plan",
  "before_compact",
  "after_compact",
  "before_compact_commit",
];

export function compactionModules(manifest: Manifest | undefined): string[] {
  if (!manifest) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const hook of COMPACTION_HOOKS) {
    for (const ref of manifest.hooks[hook] ?? []) {
      if (seen.has(ref.module)) continue;
      seen.add(ref.module);
      out.push(ref.builtin ? `${ref.module} (built-in)` : `${ref.module} (${ref.exec[0]})`);
    }
  }
  return out;
}
