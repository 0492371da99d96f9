// A structural check of Windows batch files, for machines without cmd.exe: the mistakes that made
// start.cmd return the wrong exit code or collide, found by reading the text the way cmd.exe parses it.

/** `%NAME%` references in a line, without `%%X` loop variables, `%~dp0`-style or `%1`/`%*` arguments. */
function percentVars(line: string): string[] {
  const out: string[] = [];
  for (const m of line.replace(/%%/g, "").matchAll(/%([A-Za-z_][\w]*)%/g))
    out.push((m[1] as string).toUpperCase());
  return out;
}

function isComment(line: string): boolean {
  return /^\s*(@?rem(\s|$)|::)/i.test(line);
}

/** Net change of ( ) nesting in a line, ignoring parentheses inside double quotes. */
function parenDelta(line: string): number {
  let depth = 0;
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === "(") depth++;
    else if (!quoted && c === ")") depth--;
  }
  return depth;
}

/**
 * Problems found in a batch file, one sentence each: LF-only line endings, no `@echo off`, `%RANDOM%` temp
 * names, and `%VAR%` read inside a ( ) block when VAR is ERRORLEVEL or set in that same block — cmd.exe
 * expands those once, when it parses the whole block, so they hold the value from before the block ran.
 */
export function batchProblems(text: string): string[] {
  const problems: string[] = [];
  if (/(^|[^\r])\n/.test(text)) problems.push("LF-only line endings (cmd.exe needs CRLF)");
  const lines = text.split(/\r?\n/);
  if (!/^@echo off$/i.test(lines[0]?.trim() ?? "")) problems.push("first line is not @echo off");
  if (/%RANDOM%/i.test(text)) problems.push("%RANDOM% names can collide");
  let depth = 0;
  let block: { start: number; lines: string[] } | undefined;
  const checkBlock = (b: { start: number; lines: string[] }) => {
    const setInBlock = new Set(
      b.lines.flatMap((l) =>
        [...l.matchAll(/\bset\s+"?([A-Za-z_]\w*)=/gi)].map((m) => (m[1] as string).toUpperCase()),
      ),
    );
    for (const l of b.lines)
      for (const v of percentVars(l))
        if (v === "ERRORLEVEL" || setInBlock.has(v))
          problems.push(`%${v}% inside the ( ) block at line ${b.start} is expanded before the block runs`);
  };
  for (const [i, line] of lines.entries()) {
    if (isComment(line)) continue;
    const before = depth;
    depth += parenDelta(line);
    if (before === 0 && depth > 0) block = { start: i + 1, lines: [] };
    if (block) block.lines.push(line);
    if (block && depth <= 0) {
      checkBlock(block);
      block = undefined;
      depth = 0;
    }
  }
  if (block) problems.push(`unclosed ( ) block at line ${block.start}`);
  return problems;
}
