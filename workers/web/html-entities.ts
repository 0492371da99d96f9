// Decoding HTML character references in page text: numeric ones and the named ones that actually show
// up in prose. An unknown name is left as written rather than guessed.

/** The Latin-1 names, code points 160..255 in order. */
const LATIN1 = (
  "nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 " +
  "acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde " +
  "Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute " +
  "Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde " +
  "auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute " +
  "ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml"
).split(" ");

const NAMED = new Map<string, string>([
  ...LATIN1.map((name, i) => [name, String.fromCharCode(160 + i)] as [string, string]),
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", '"'],
  ["apos", "'"],
  ["nbsp", " "], // a plain space reads better in extracted text
  ["shy", ""],
  ["trade", "™"],
  ["hellip", "…"],
  ["mdash", "—"],
  ["ndash", "–"],
  ["lsquo", "‘"],
  ["rsquo", "’"],
  ["sbquo", "‚"],
  ["ldquo", "“"],
  ["rdquo", "”"],
  ["bdquo", "„"],
  ["bull", "•"],
  ["euro", "€"],
  ["larr", "←"],
  ["rarr", "→"],
  ["uarr", "↑"],
  ["darr", "↓"],
  ["harr", "↔"],
  ["minus", "−"],
  ["le", "≤"],
  ["ge", "≥"],
  ["ne", "≠"],
  ["zwj", ""],
  ["zwnj", ""],
  ["thinsp", " "],
  ["ensp", " "],
  ["emsp", " "],
]);

export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z][a-z0-9]*);?/gi, (whole, ref: string) => {
    if (ref.startsWith("#")) {
      const code =
        ref[1] === "x" || ref[1] === "X" ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        return "\uFFFD";
      }
      return String.fromCodePoint(code);
    }
    // Names are case-sensitive (&Eacute; is not &eacute;); only all-caps forms like &AMP; fall back.
    return NAMED.get(ref) ?? (ref === ref.toUpperCase() ? NAMED.get(ref.toLowerCase()) : undefined) ?? whole;
  });
}
