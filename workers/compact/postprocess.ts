// `after_compact`: tidy what the summariser wrote. Models often wrap the answer in a code fence or
// <summary> tags (the summary message adds its own), and windows line endings or runs of blank lines
// waste context. The text itself is not rewritten.
export function normaliseSummary(raw: string): string {
  let s = raw.replace(/\r\n?/g, "\n").trim();
  const fenced = /^```[a-z]*\n([\s\S]*?)\n```$/i.exec(s);
  if (fenced) s = (fenced[1] as string).trim();
  const tagged = /^<summary>\s*([\s\S]*?)\s*<\/summary>$/i.exec(s);
  if (tagged) s = (tagged[1] as string).trim();
  s = s.replace(/[ \t]+$/gm, "").replace(/\n{3,}/g, "\n\n");
  if (s === "") throw new Error("after_compact: the summary is empty after normalisation");
  return s;
}
