// `i doctor`, desktop.json: the manifest packaged desktop launches use as-is. It is valid or not (like
// any --manifest), and it either matches what the current bindings and profile generate or it is stale —
// then doctor says how it differs and prints the one command that regenerates it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Manifest } from "../contract/manifest.ts";
import { jsonEqual } from "../lib/json-equal.ts";
import { loadManifestFile } from "../manifest/load.ts";
import { attempt, type Row, shellWord } from "./report.ts";

/** Which modules differ between two manifests: `+name` only now, `-name` only saved, `~name` changed. */
function moduleDiff(saved: Manifest, now: Manifest): string[] {
  const byName = (m: Manifest) => new Map(m.modules.map((x) => [x.name, x]));
  const a = byName(saved);
  const b = byName(now);
  const out: string[] = [];
  for (const [name, m] of b) {
    const old = a.get(name);
    if (!old) out.push(`+${name}`);
    else if (!jsonEqual(old, m)) out.push(`~${name}`);
  }
  for (const name of a.keys()) if (!b.has(name)) out.push(`-${name}`);
  return out;
}

/** The one command that writes a fresh desktop.json for `profile` (atomically: a new file, then a rename). */
export function regenerateCommand(dir: string, profile: string): string {
  const file = join(dir, "desktop.json");
  const tmp = `${file}.new`;
  if (process.platform === "win32")
    return `i --runtime manifest ${profile} > "${tmp}" && move /y "${tmp}" "${file}"`;
  return `i --runtime manifest ${shellWord(profile)} > ${shellWord(tmp)} && mv ${shellWord(tmp)} ${shellWord(file)}`;
}

/** The desktop.json row, compared with `current` (generated now; undefined when it cannot be). */
export function desktopRow(dir: string, current: Manifest | undefined): Row {
  const file = join(dir, "desktop.json");
  if (!existsSync(file))
    return {
      name: "desktop.json",
      status: "-",
      detail: "not present: desktop launches generate a fresh manifest",
    };
  const row = attempt(
    "desktop.json",
    () => loadManifestFile(file),
    (m) => `profile ${m.profile}`,
  );
  if (!row.value || !current) return row;
  if (jsonEqual(row.value, current))
    return { ...row, detail: `${row.detail}, matches the current bindings and profile` };
  const diff = moduleDiff(row.value, current);
  const what = diff.length ? `modules ${diff.join(" ")}` : "settings";
  return {
    name: "desktop.json",
    status: "differs",
    detail: `${what} differ from what the current bindings and profile (${current.profile}) generate`,
    problem: `desktop.json: to regenerate it run: ${regenerateCommand(dir, current.profile)}`,
  };
}
