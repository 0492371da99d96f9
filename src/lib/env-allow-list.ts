// The variables a process `i` starts may inherit from its parent: the allow-list of every worker's
// environment (and so of what a worker passes on). Anything else, credentials included, is dropped.

/** Copied from the parent when present. */
export const INHERITED_VARS = [
  "PATH",
  "HOME",
  "USER",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TERM",
  "TMPDIR",
  "TEMP",
  "TMP",
] as const;
/** Windows needs these for almost any program to start. */
export const WINDOWS_VARS = ["SYSTEMROOT", "WINDIR"] as const;
