// One reader of /proc/PID/stat (Linux), its fields numbered as proc(5) numbers them. The second field,
// the command name in parentheses, may itself hold spaces and parentheses, so the fields are split after
// the last ")"; field 3 (the state) is the first of those.
import { readFileSync } from "node:fs";

/** A getter of `pid`'s stat field n (n ≥ 3), or undefined when there is no such process or no /proc. */
export function procStat(pid: number | string): ((n: number) => string | undefined) | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return (n) => fields[n - 3];
}
