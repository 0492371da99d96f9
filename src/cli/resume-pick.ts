// `i -r` (or `--resume`) with no id after it opens the session picker. citty and the strict check want a
// value for a string flag, so the bare flag is given one no user can type before they see it; run.ts
// turns that value into the picker.
export const RESUME_PICK = "\u0000pick";

/** `argv` with a bare -r/--resume given RESUME_PICK (words after `--` are the prompt's, left alone). */
export function markBareResume(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i] as string;
    out.push(tok);
    if (tok === "--") {
      out.push(...argv.slice(i + 1));
      break;
    }
    const next = argv[i + 1];
    if (
      (tok === "-r" || tok === "--resume") &&
      (next === undefined || (next.startsWith("-") && next !== "-"))
    )
      out.push(RESUME_PICK);
  }
  return out;
}
