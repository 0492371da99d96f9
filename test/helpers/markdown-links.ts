// The relative links of a markdown file, and the anchors its headings get on GitHub, so a test can check
// that every link between the README, docs/ and the folder READMEs lands on a file and a heading that exist.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/** Markdown without its fenced code blocks and inline code spans (no links live there). */
function prose(text: string): string {
  return text
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "")
    .replace(/`[^`\n]*`/g, (m) => (m.includes("](") ? "" : m));
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2… */
export function headingAnchors(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const plain = (m[1] as string).replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[`*]/g, "");
    const base = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every link target of a markdown text that is not a URL (http:, https:, mailto:). */
export function relativeLinks(text: string): string[] {
  const out: string[] = [];
  for (const m of prose(text).matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = m[1] as string;
    if (!/^[a-z]+:/i.test(target)) out.push(target);
  }
  return out;
}

/** One line per broken link of the markdown file `file` (a path under `root`). */
export function brokenLinks(root: string, file: string): string[] {
  const problems: string[] = [];
  const text = readFileSync(join(root, file), "utf8");
  for (const link of relativeLinks(text)) {
    const [path = "", anchor] = link.split("#", 2);
    const target = path === "" ? join(root, file) : join(root, dirname(file), decodeURI(path));
    const shown = relative(root, target);
    if (!existsSync(target)) {
      problems.push(`${file}: link ${link}: ${shown} does not exist`);
      continue;
    }
    if (anchor === undefined) continue;
    if (statSync(target).isDirectory() || !target.endsWith(".md")) {
      problems.push(`${file}: link ${link}: an anchor into ${shown}, which is not a markdown file`);
      continue;
    }
    if (!headingAnchors(readFileSync(target, "utf8")).has(anchor))
      problems.push(`${file}: link ${link}: ${shown} has no heading with the anchor #${anchor}`);
  }
  return problems;
}
