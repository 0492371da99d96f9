// Turning an HTML page into text a model can read: scripts, styles and markup go; headings become
// `#` lines, list items `- ` lines, links keep their text with the target URL after it, and <pre>
// keeps its layout. This is a reading aid, not a browser: malformed markup degrades to plain text.
import { decodeEntities } from "./html-entities.ts";

/** Elements whose whole content is dropped (the title is shown separately). */
const DROPPED = ["script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "title"];
/** Stand-ins for <pre> line breaks and spaces, so whitespace clean-up leaves preformatted text alone. */
const PRE_NL = "\u0001";
const PRE_SP = "\u0002";
const PRE_TAB = "\u0003";
const BLOCK = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "br",
  "dd",
  "details",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "header",
  "hr",
  "html",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "summary",
  "table",
  "tbody",
  "thead",
  "tfoot",
  "tr",
  "ul",
  "caption",
]);

function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(attrs);
  return m ? decodeEntities(m[2] ?? m[3] ?? m[4] ?? "") : undefined;
}

function resolveHref(href: string, base: string): string | undefined {
  try {
    const u = new URL(href, base);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : undefined;
  } catch {
    return undefined;
  }
}

export interface PageText {
  title: string | undefined;
  text: string;
}

export function htmlToText(html: string, baseUrl: string): PageText {
  const titleMatch = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  const title = titleMatch
    ? decodeEntities(titleMatch[1] ?? "")
        .replace(/\s+/g, " ")
        .trim()
    : undefined;
  // The page's own stand-in characters would come out as layout: drop them before any are ours.
  let src = html
    .replaceAll(PRE_NL, "")
    .replaceAll(PRE_SP, "")
    .replaceAll(PRE_TAB, "")
    .replace(/<!--[\s\S]*?(-->|$)/g, "");
  for (const tag of DROPPED) {
    src = src.replace(new RegExp(`<${tag}\\b[\\s\\S]*?(<\\/${tag}\\s*>|$)`, "gi"), " ");
  }

  const out: string[] = [];
  let pre = 0;
  const links: { href: string | undefined; start: number }[] = [];
  // Line breaks are owed, not written, until the next visible text: two block boundaries in a row then
  // give one break instead of a pile of blank lines.
  let owed = 0;
  const lineBreak = (n: number) => {
    owed = Math.max(owed, n);
  };
  const emit = (s: string) => {
    if (owed > 0 && out.length > 0) out.push("\n".repeat(owed));
    owed = 0;
    out.push(s);
  };
  const tokens = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>|<[!?][^>]*>|([^<]+|<)/g;
  for (let m = tokens.exec(src); m !== null; m = tokens.exec(src)) {
    const [, closing, rawName, attrs = "", text] = m;
    if (text !== undefined) {
      const t = decodeEntities(text);
      if (pre > 0) emit(t.replaceAll("\n", PRE_NL).replaceAll(" ", PRE_SP).replaceAll("\t", PRE_TAB));
      else {
        const flat = t.replace(/\s+/g, " ");
        if (flat !== " " || owed === 0) emit(flat);
      }
      continue;
    }
    if (rawName === undefined) continue; // doctype, processing instruction
    const name = rawName.toLowerCase();
    const heading = /^h([1-6])$/.exec(name);
    if (heading) {
      lineBreak(2);
      if (!closing) emit(`${"#".repeat(Number(heading[1]))} `);
    } else if (name === "li") {
      lineBreak(1);
      if (!closing) emit("- ");
    } else if (name === "pre") {
      pre = closing ? Math.max(0, pre - 1) : pre + 1;
      lineBreak(1);
    } else if (name === "p" || name === "blockquote" || name === "table") lineBreak(2);
    else if (name === "br" && out.length > 0) {
      if (owed > 0) out.push("\n".repeat(owed));
      owed = 1; // consecutive <br> each end a line
    } else if (BLOCK.has(name)) lineBreak(1);
    else if ((name === "td" || name === "th") && !closing) emit("\t");
    else if (name === "img" && !closing) {
      const alt = attr(attrs, "alt");
      if (alt) emit(`[image: ${alt}]`);
    } else if (name === "a") {
      if (!closing) links.push({ href: resolveHref(attr(attrs, "href") ?? "", baseUrl), start: out.length });
      else {
        const link = links.pop();
        const label = link ? out.slice(link.start).join("").trim() : "";
        // A link whose text is its own URL needs no repeat.
        if (link?.href && label !== "" && label !== link.href && `${label}/` !== link.href)
          emit(` (${link.href})`);
      }
    }
  }
  const text = out
    .join("")
    .split("\n")
    .map((l) => l.replace(/^[ \t]+|[ \t]+$/g, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()
    .replaceAll(PRE_NL, "\n")
    .replaceAll(PRE_SP, " ")
    .replaceAll(PRE_TAB, "\t");
  return { title, text };
}
