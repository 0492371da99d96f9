// One simple command judged: wrappers taken off (env, command, exec, sudo, nice, timeout, xargs, …),
// `cd` followed, shells and eval read as the scripts they run, then the rules for what is left.
import { basename } from "node:path";
import { fileOp } from "./file-ops.ts";
import { gitCommand } from "./git.ts";
import { INTERPRETERS, interpreter } from "./interpreters.ts";
import { absolute, judgePath, realish } from "./paths.ts";
import { type Reading, readScript, type Scope, type Stdin, writtenScript } from "./walk.ts";
import { tildeWord, type Word } from "./words.ts";

const SHELLS = new Set(["bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "fish"]);

/** Wrappers that run their operands as a command: the options of each that take a value. */
const WRAPPERS: Record<string, { valued: Set<string>; positional?: number }> = {
  env: { valued: new Set(["-u", "--unset", "-C", "--chdir", "-S", "--split-string"]) },
  command: { valued: new Set() },
  builtin: { valued: new Set() },
  exec: { valued: new Set(["-a"]) },
  nohup: { valued: new Set() },
  time: { valued: new Set(["-f", "-o"]) },
  nice: { valued: new Set(["-n", "--adjustment"]) },
  ionice: { valued: new Set(["-c", "-n", "-p"]) },
  setsid: { valued: new Set() },
  stdbuf: { valued: new Set(["-i", "-o", "-e"]) },
  timeout: { valued: new Set(["-s", "--signal", "-k", "--kill-after"]), positional: 1 },
  sudo: { valued: new Set(["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T"]) },
  doas: { valued: new Set(["-u", "-C"]) },
  chronic: { valued: new Set() },
  unbuffer: { valued: new Set() },
  watch: { valued: new Set(["-n", "--interval", "-d"]) },
  flock: { valued: new Set(["-w", "-E"]), positional: 1 },
};

export const program = (w: Word | undefined): string => (w ? basename(w.value) : "");

/** A word made from a known string (an xargs item, find's `{}`), for the rules. */
export function syntheticWord(value: string, like: Word, dynamic = false): Word {
  return { value, dynamic, glob: false, node: like.node };
}

/** The command a wrapper runs: its words after the wrapper's own options (and positionals). */
function unwrapOnce(words: Word[], env: Map<string, string>, scope: Scope, r: Reading): Word[] | undefined {
  const name = program(words[0]);
  const spec = WRAPPERS[name];
  if (!spec) return undefined;
  let i = 1;
  let positional = spec.positional ?? 0;
  while (i < words.length) {
    const w = words[i]?.value ?? "";
    if (w === "--") {
      i++;
      break;
    }
    if (name === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) {
      const eq = w.indexOf("=");
      env.set(w.slice(0, eq), w.slice(eq + 1));
      i++;
      continue;
    }
    if (name === "env" && (w === "-S" || w === "--split-string" || w.startsWith("--split-string="))) {
      const s = w.includes("=") ? w.slice(w.indexOf("=") + 1) : (words[i + 1]?.value ?? "");
      readScript(s, scope, r);
      return [];
    }
    if (name === "env" && (w === "-C" || w === "--chdir")) {
      const d = words[i + 1];
      scope.cwd =
        d && !d.dynamic && scope.cwd
          ? realish(absolute(tildeWord(d, r.place.home), scope.cwd, r.place.home), true)
          : undefined;
      i += 2;
      continue;
    }
    if (name === "command" && (w === "-v" || w === "-V")) return [];
    if (w.startsWith("-") && w.length > 1) {
      i += spec.valued.has(w) ? 2 : 1;
      continue;
    }
    if (positional > 0) {
      positional--;
      i++;
      continue;
    }
    break;
  }
  return words.slice(i);
}

/** xargs: the command it runs, with the items it reads from its input as arguments only known then. */
function xargs(words: Word[]): Word[] {
  const valued = new Set(["-I", "-i", "-d", "-n", "-P", "-L", "-s", "-a", "-E", "--delimiter", "--max-args"]);
  let i = 1;
  while (i < words.length && (words[i]?.value ?? "").startsWith("-"))
    i += valued.has(words[i]?.value ?? "") ? 2 : 1;
  const rest = words.slice(i);
  const last = rest.at(-1) ?? words[0];
  return rest.length === 0 || !last ? [] : [...rest, syntheticWord("{xargs input}", last, true)];
}

function cd(words: Word[], scope: Scope, r: Reading): void {
  const dir = words[1];
  if (!dir) scope.cwd = r.place.home;
  else if (dir.dynamic || dir.value === "-" || scope.cwd === undefined) scope.cwd = undefined;
  else scope.cwd = realish(absolute(tildeWord(dir, r.place.home), scope.cwd, r.place.home), true);
}

function shell(words: Word[], scope: Scope, r: Reading, stdin: Stdin): void {
  const c = words.findIndex((w, i) => i > 0 && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.value));
  if (c > 0) {
    const script = words[c + 1];
    if (!script) return;
    if (script.dynamic && /\$\((curl|wget)\b|`(curl|wget)\b/.test(script.node.text))
      r.findings.push({ kind: "flagged", reason: "runs code downloaded from the network" });
    else if (script.dynamic)
      r.findings.push({ kind: "unknown", reason: "runs a script only known when it runs" });
    else readScript(script.value, scope, r);
    return;
  }
  const file = words.slice(1).find((w) => !w.value.startsWith("-"));
  if (file?.node.type === "process_substitution" && /^<\(\s*(curl|wget)\b/.test(file.node.text)) {
    r.findings.push({ kind: "flagged", reason: "runs code downloaded from the network (bash <(curl …))" });
    return;
  }
  const written = writtenScript(file, scope, r);
  if (written !== undefined) {
    readScript(written, scope, r);
    return;
  }
  if (file) return;
  if (stdin && "download" in stdin)
    r.findings.push({ kind: "flagged", reason: "runs code downloaded from the network (curl … | sh)" });
  else if (stdin && "script" in stdin) readScript(stdin.script, scope, r);
}

export function judge(words: Word[], env: Map<string, string>, scope: Scope, r: Reading, stdin: Stdin): void {
  let w = words;
  for (let guard = 0; guard < 16 && w.length > 0; guard++) {
    const name = program(w[0]);
    if (name === "xargs") w = xargs(w);
    else {
      const inner = unwrapOnce(w, env, scope, r);
      if (!inner) break;
      w = inner;
    }
  }
  const first = w[0];
  if (!first) return;
  if (first.dynamic) {
    r.findings.push({
      kind: "unknown",
      reason: `runs a program only known when it runs (${first.node.text})`,
    });
    return;
  }
  const name = program(first);
  const rule = RULED[name] ?? (INTERPRETERS.has(name.replace(/[0-9.]+$/, "")) ? interpreter : undefined);
  if (rule) {
    rule(w, env, scope, r, stdin);
    return;
  }
  const written = /^\.?\.?\//.test(first.value) ? writtenScript(first, scope, r) : undefined;
  if (written !== undefined) readScript(written, scope, r);
  else fileOp(w, scope, r);
}

type Judge = (w: Word[], env: Map<string, string>, scope: Scope, r: Reading, stdin: Stdin) => void;

/** Commands with their own reading; the rest go to the file operations' table. */
const RULED: Record<string, Judge> = {
  cd: (w, _e, s, r) => cd(w, s, r),
  pushd: (w, _e, s, r) => cd(w, s, r),
  eval: (w, _e, s, r) =>
    readScript(
      w
        .slice(1)
        .map((x) => x.value)
        .join(" "),
      s,
      r,
    ),
  source: (w, _e, s, r, stdin) => sourced(w, s, r, stdin),
  ".": (w, _e, s, r, stdin) => sourced(w, s, r, stdin),
  git: (w, e, s, r) => gitCommand(w, e, s, r),
  ...Object.fromEntries(
    [...SHELLS].map((n) => [
      n,
      (w: Word[], _e: Map<string, string>, s: Scope, r: Reading, stdin: Stdin) => shell(w, s, r, stdin),
    ]),
  ),
};

function sourced(w: Word[], scope: Scope, r: Reading, stdin: Stdin): void {
  if (w[1]?.node.type === "process_substitution" && /^<\(\s*(curl|wget)\b/.test(w[1].node.text))
    r.findings.push({ kind: "flagged", reason: "runs code downloaded from the network (source <(curl …))" });
  else if (stdin && "download" in stdin && (w[1] === undefined || w[1].value === "/dev/stdin"))
    r.findings.push({ kind: "flagged", reason: "runs code downloaded from the network" });
  const s = writtenScript(w[1], scope, r);
  if (s !== undefined) readScript(s, scope, r);
}

/** A redirection: `> file`, `>> file`, `&> file`, `>| file` overwrite or append to `file`. */
export function redirect(
  target: Word,
  op: string,
  scope: Scope,
  r: Reading,
  heredoc: string | undefined,
): void {
  if (!op.includes(">")) return;
  if ((op === ">&" || op === "&>" || op === "<&") && /^(\d+|-)$/.test(target.value)) return;
  if (target.dynamic || scope.cwd === undefined) {
    r.findings.push({
      kind: "unknown",
      reason: `writes to a file only known when it runs (${target.node.text})`,
    });
    return;
  }
  const path = absolute(tildeWord(target, r.place.home), scope.cwd, r.place.home);
  if (heredoc !== undefined) r.written.set(realish(path, true), heredoc);
  const why = judgePath(path, "write", r.place);
  if (why) r.findings.push({ kind: "flagged", reason: `${op} ${why}` });
}
