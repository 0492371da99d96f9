// What each release archive holds. A platform archive: the one `i` executable (the core, every default
// worker and the launcher logic: one Bun runtime), that platform's launchers, README, docs/, LICENSE and the JSON
// Schemas. The examples archive: the compiled TypeScript compactor, the Python one, and the Rust example
// as source (its vendored crates included, so it builds offline) plus, for linux-x64, its binary.
import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import type { Entry } from "./archive.ts";

export const TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"] as const;
export type Target = (typeof TARGETS)[number];

export const isWindows = (t: Target): boolean => t.startsWith("windows");
export const exeSuffix = (t: Target): string => (isWindows(t) ? ".exe" : "");
/** Windows users get a .zip (Explorer opens it without extra tools); everyone else a .tar.gz. */
export const archiveExt = (t: Target): string => (isWindows(t) ? ".zip" : ".tar.gz");

/** One file of an archive: copied from `from`, or written from `text`. */
export interface Member {
  rel: string;
  mode: 0o755 | 0o644;
  from?: string;
  text?: string;
}

export interface Layout {
  /** the archive's top directory and base name */
  name: string;
  members: Member[];
}

/** Every file under `dir`, as paths relative to it, in a stable order. */
export function walk(dir: string, skip: (rel: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const visit = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(d, e.name);
      const rel = relative(dir, full).split("\\").join("/");
      if (skip(rel)) continue;
      if (e.isDirectory()) visit(full);
      else if (e.isFile()) out.push(rel);
    }
  };
  visit(dir);
  return out;
}

/** The launchers of one platform that exist in this checkout (another change may add more). */
function launchers(root: string, t: Target): Member[] {
  const candidates: Array<[string, string, 0o755 | 0o644]> = isWindows(t)
    ? [
        ["scripts/start.cmd", "start.cmd", 0o644],
        ["scripts/desktop/i-console.cmd", "i-console.cmd", 0o644],
      ]
    : [
        ["scripts/start.sh", "start.sh", 0o755],
        t.startsWith("darwin")
          ? ["scripts/desktop/i-console.command", "i-console.command", 0o755]
          : ["scripts/desktop/i-console.desktop", "i-console.desktop", 0o755],
      ];
  return candidates
    .filter(([src]) => existsSync(join(root, src)))
    .map(([src, rel, mode]) => ({ rel, mode, from: join(root, src) }));
}

export function platformLayout(root: string, t: Target, binary: string): Layout {
  const members: Member[] = [
    { rel: `i${exeSuffix(t)}`, mode: 0o755, from: binary },
    ...launchers(root, t),
    { rel: "README.md", mode: 0o644, from: join(root, "README.md") },
    { rel: "LICENSE", mode: 0o644, from: join(root, "LICENSE") },
    // The README links into docs/ for everything beyond using i; the links work in the archive too.
    ...walk(join(root, "docs")).map(
      (rel): Member => ({ rel: `docs/${rel}`, mode: 0o644, from: join(root, "docs", rel) }),
    ),
    ...walk(join(root, "schemas")).map(
      (rel): Member => ({ rel: `schemas/${rel}`, mode: 0o644, from: join(root, "schemas", rel) }),
    ),
  ];
  return { name: `i-${t}`, members };
}

/**
 * The source tree builds offline from the archive as from the repository: this config, at the archive's
 * root, points cargo at the vendored crates whether it runs there or inside rust-plugin/.
 */
const CARGO_CONFIG = `# Build the Rust example offline from its vendored crates:
#   cargo build --release --locked --manifest-path rust-plugin/Cargo.toml
[source.crates-io]
replace-with = "vendored-sources"

[source.vendored-sources]
directory = "rust-plugin/vendor"
`;

export function examplesLayout(
  root: string,
  t: Target,
  compactor: string,
  rustBinary: string | undefined,
): Layout {
  const ex = join(root, "examples");
  const rust = join(ex, "rust-plugin");
  const members: Member[] = [
    { rel: "README.md", mode: 0o644, from: join(ex, "README.md") },
    { rel: "LICENSE", mode: 0o644, from: join(root, "LICENSE") },
    { rel: `local-compactor/i-local-compactor${exeSuffix(t)}`, mode: 0o755, from: compactor },
    { rel: "local-compactor/README.md", mode: 0o644, from: join(ex, "local-compactor", "README.md") },
    {
      rel: "python-compactor/compactor.py",
      mode: 0o755,
      from: join(ex, "python-compactor", "compactor.py"),
    },
    { rel: ".cargo/config.toml", mode: 0o644, text: CARGO_CONFIG },
    ...walk(rust, (rel) => rel === "target" || rel.startsWith("target/")).map(
      (rel): Member => ({ rel: `rust-plugin/${rel}`, mode: 0o644, from: join(rust, rel) }),
    ),
  ];
  if (rustBinary)
    members.push({ rel: "rust-plugin/target/release/i-plugin-example", mode: 0o755, from: rustBinary });
  return { name: `i-examples-${t}`, members };
}

/** The archive entries of a layout (its directories included), reading each member through `read`. */
export function entriesOf(layout: Layout, read: (rel: string) => Uint8Array): Entry[] {
  const dirs = new Set<string>([`${layout.name}/`]);
  const files: Entry[] = [];
  for (const m of layout.members) {
    const parts = m.rel.split("/");
    for (let i = 1; i < parts.length; i++) dirs.add(`${layout.name}/${parts.slice(0, i).join("/")}/`);
    files.push({ path: `${layout.name}/${m.rel}`, mode: m.mode, data: read(m.rel) });
  }
  return [...[...dirs].map((path): Entry => ({ path, mode: 0o755 })), ...files];
}
