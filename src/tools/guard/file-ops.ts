// The commands that delete, move over, overwrite, truncate, chmod/chown or extract files, and which of
// their operands they do it to; each such operand is judged by where it really is (paths.ts).
import { type Action, absolute, judgePath } from "./paths.ts";
import type { Reading, Scope } from "./walk.ts";
import { tildeWord, type Word } from "./words.ts";

interface Split {
  /** operands, in order (after `--` everything is one) */
  args: Word[];
  /** options, with the value of those given one (`-t DIR`, `--target-directory=DIR`) */
  opts: Map<string, string>;
  flags: string;
}

/** Options and operands; `valued` options take the next word (or `=value`). */
function split(words: Word[], valued: readonly string[]): Split {
  const args: Word[] = [];
  const opts = new Map<string, string>();
  let flags = "";
  let ended = false;
  for (let i = 1; i < words.length; i++) {
    const w = words[i] as Word;
    const v = w.value;
    if (ended || !v.startsWith("-") || v === "-") {
      args.push(w);
      continue;
    }
    if (v === "--") {
      ended = true;
      continue;
    }
    const eq = v.indexOf("=");
    const key = v.startsWith("--") && eq > 0 ? v.slice(0, eq) : v;
    if (v.startsWith("--") && eq > 0) opts.set(key, v.slice(eq + 1));
    else if (valued.includes(v)) {
      opts.set(v, words[i + 1]?.value ?? "");
      i++;
    } else opts.set(v, "");
    if (!v.startsWith("--")) flags += v.slice(1);
  }
  return { args, opts, flags };
}

function judge(w: Word, action: Action, scope: Scope, r: Reading, recursive = false, verbPrefix = ""): void {
  if (w.dynamic || scope.cwd === undefined) {
    r.findings.push({ kind: "unknown", reason: `acts on a path only known when it runs (${w.node.text})` });
    return;
  }
  let value = tildeWord(w, r.place.home);
  let everything = false;
  if (w.glob) {
    // A wildcard: judge the directory it lists; `*` alone there means all of it.
    const segs = value.split("/");
    const at = segs.findIndex((s) => /[*?[]/.test(s));
    everything = at === segs.length - 1 && /^(\*|\.\*|\*\.?\*?)$/.test(segs[at] ?? "");
    value = segs.slice(0, at).join("/") || (value.startsWith("/") ? "/" : ".");
    if (!everything) value = `${value}/${segs[at]}`;
  }
  const path = absolute(value, scope.cwd, r.place.home);
  const why = judgePath(path, action, r.place, { recursive, everything });
  if (why) r.findings.push({ kind: "flagged", reason: `${verbPrefix}${why}` });
}

const RECURSIVE = (s: Split) => /[rR]/.test(s.flags) || s.opts.has("--recursive");

function destination(s: Split): Word | undefined {
  const t = s.opts.get("-t") ?? s.opts.get("--target-directory");
  return t !== undefined
    ? ({ ...(s.args[0] as Word), value: t, dynamic: false, glob: false } as Word)
    : s.args.at(-1);
}

type Rule = (words: Word[], scope: Scope, r: Reading) => void;

const deleting: Rule = (words, scope, r) => {
  const s = split(words, []);
  for (const a of s.args) judge(a, "delete", scope, r, RECURSIVE(s), `${words[0]?.value} `);
};

const copying: Rule = (words, scope, r) => {
  const s = split(words, ["-t", "-S", "--suffix", "-T"]);
  if (s.args.length < 2 && !s.opts.has("-t")) return;
  const d = destination(s);
  if (d) judge(d, "write", scope, r, false, `${words[0]?.value} `);
};

const moving: Rule = (words, scope, r) => {
  const s = split(words, ["-t", "-S", "--suffix"]);
  if (s.args.length < 2 && !s.opts.has("-t")) return;
  const d = destination(s);
  const sources = s.opts.has("-t") || s.opts.has("--target-directory") ? s.args : s.args.slice(0, -1);
  for (const a of sources) judge(a, "move", scope, r, true, "mv ");
  if (d) judge(d, "write", scope, r, false, "mv ");
};

const chmodding: Rule = (words, scope, r) => {
  const s = split(words, ["--reference"]);
  const targets = s.opts.has("--reference") ? s.args : s.args.slice(1);
  for (const a of targets) judge(a, "chmod", scope, r, RECURSIVE(s), `${words[0]?.value} `);
};

const each =
  (action: Action, valued: string[] = [], skipFirst = false): Rule =>
  (words, scope, r) => {
    const s = split(words, valued);
    for (const a of skipFirst ? s.args.slice(1) : s.args)
      judge(a, action, scope, r, false, `${words[0]?.value} `);
  };

const dd: Rule = (words, scope, r) => {
  for (const w of words.slice(1))
    if (w.value.startsWith("of=")) judge({ ...w, value: w.value.slice(3) }, "write", scope, r, false, "dd ");
};

const rsync: Rule = (words, scope, r) => {
  const s = split(words, ["-e", "--rsh", "--exclude", "--include", "--filter", "-f"]);
  const d = s.args.at(-1);
  if (s.args.length < 2 || !d || /^[^/]*:/.test(d.value)) return;
  const deletes = [...s.opts.keys()].some((k) => k.startsWith("--delete") || k === "--remove-source-files");
  judge(d, deletes ? "delete" : "write", scope, r, deletes, "rsync ");
};

const tar: Rule = (words, scope, r) => {
  const first = words[1]?.value ?? "";
  const bundled = /^[a-zA-Z]+$/.test(first) ? first : "";
  const s = split(words, ["-C", "--directory", "-f", "--file"]);
  const extract = /x/.test(bundled) || /x/.test(s.flags) || s.opts.has("--extract") || s.opts.has("--get");
  const create = /c/.test(bundled) || /c/.test(s.flags) || s.opts.has("--create");
  const dir = s.opts.get("-C") ?? s.opts.get("--directory");
  const like = words[0] as Word;
  if (extract)
    judge({ ...like, value: dir ?? ".", dynamic: false, glob: false }, "extract", scope, r, false, "tar -x ");
  const file =
    s.opts.get("-f") ?? s.opts.get("--file") ?? (bundled.includes("f") ? words[2]?.value : undefined);
  if (create && file && file !== "-")
    judge({ ...like, value: file, dynamic: false, glob: false }, "write", scope, r, false, "tar -c ");
};

const unzip: Rule = (words, scope, r) => {
  const s = split(words, ["-d", "-x"]);
  const like = words[0] as Word;
  judge(
    { ...like, value: s.opts.get("-d") ?? ".", dynamic: false, glob: false },
    "extract",
    scope,
    r,
    false,
    "unzip ",
  );
};

const sedLike: Rule = (words, scope, r) => {
  const s = split(words, ["-e", "-f", "--expression", "--file"]);
  const inPlace = [...s.opts.keys()].some((k) => k === "--in-place" || /^-[a-zA-Z]*i/.test(k));
  if (!inPlace) return;
  const scripted =
    s.opts.has("-e") || s.opts.has("-f") || s.opts.has("--expression") || words[0]?.value === "perl";
  for (const a of scripted ? s.args : s.args.slice(1))
    judge(a, "write", scope, r, false, `${words[0]?.value} -i `);
};

const downloader: Rule = (words, scope, r) => {
  const s = split(words, ["-o", "--output", "-O", "--output-document", "-H", "-d", "-X", "-u", "-A", "-e"]);
  const out =
    s.opts.get("-o") ??
    s.opts.get("--output") ??
    (words[0]?.value === "wget" ? (s.opts.get("-O") ?? s.opts.get("--output-document")) : undefined);
  if (out && out !== "-")
    judge(
      { ...(words[0] as Word), value: out, dynamic: false, glob: false },
      "write",
      scope,
      r,
      false,
      `${words[0]?.value} -o `,
    );
};

const mkfs: Rule = (words, _scope, r) => {
  r.findings.push({ kind: "flagged", reason: `${words[0]?.value} formats a filesystem` });
};

const RULES: Record<string, Rule> = {
  rm: deleting,
  rmdir: deleting,
  unlink: deleting,
  shred: deleting,
  srm: deleting,
  mv: moving,
  cp: copying,
  install: copying,
  ln: (w, s, r) => {
    if (split(w, []).flags.includes("f")) copying(w, s, r);
  },
  dd,
  tee: each("write"),
  truncate: each("write", ["-s", "--size", "-r", "--reference"]),
  chmod: chmodding,
  chown: chmodding,
  chgrp: chmodding,
  chattr: chmodding,
  setfacl: chmodding,
  rsync,
  tar,
  unzip,
  sed: sedLike,
  perl: sedLike,
  curl: downloader,
  wget: downloader,
  wipefs: mkfs,
  fdisk: mkfs,
  sfdisk: mkfs,
};

export function fileOp(words: Word[], scope: Scope, r: Reading): void {
  const name = (words[0]?.value ?? "").split("/").at(-1) ?? "";
  const rule = RULES[name] ?? (name.startsWith("mkfs") ? mkfs : undefined);
  rule?.(words, scope, r);
  if (name === "find") findCommand(words, scope, r);
}

const PREDICATES =
  /^-(name|iname|path|ipath|wholename|regex|iregex|type|mtime|mmin|newer|size|empty|user|perm|links|inum|samefile)$/;

/** find: `-delete` under its start paths, and what `-exec`/`-execdir`/`-ok` run on what it finds. */
function findCommand(words: Word[], scope: Scope, r: Reading): void {
  const rest = words.slice(1);
  const firstExpr = rest.findIndex((w) => /^[-(!]/.test(w.value));
  const starts = firstExpr < 0 ? rest : rest.slice(0, firstExpr);
  const roots =
    starts.length > 0 ? starts : [{ ...(words[0] as Word), value: ".", dynamic: false, glob: false }];
  const expr = firstExpr < 0 ? [] : rest.slice(firstExpr);
  const filtered = expr.some((w) => PREDICATES.test(w.value));
  // With a test (-name, -type …) only what matches goes: the start path itself is judged as its contents.
  const under = (w: Word): Word => (filtered ? { ...w, value: `${w.value.replace(/\/+$/, "")}/…` } : w);
  if (expr.some((w) => w.value === "-delete"))
    for (const s of roots) judge(under(s), "delete", scope, r, true, "find -delete ");
  for (let i = 0; i < expr.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(expr[i]?.value ?? "")) continue;
    const end = expr.findIndex((w, j) => j > i && (w.value === ";" || w.value === "+"));
    const cmd = expr.slice(i + 1, end < 0 ? undefined : end);
    for (const s of roots) {
      const found = under(s);
      const run = cmd.map((w) => (w.value === "{}" ? found : w));
      r.judge(run, new Map(), scope, r, undefined);
    }
    if (end < 0) break;
    i = end;
  }
}
