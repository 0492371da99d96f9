// The bash sandbox (on by default where it runs; `--sandbox workspace-write[,network]`, Linux, bubblewrap): each command runs
// with the whole filesystem read-only except the workspace and a private /tmp, in its own pid namespace
// with a fresh /proc (so the core, its environment and its memory are not even visible), and without
// network unless `,network` was given, and config_dir (auth.json) replaced by an empty directory. File tools run in the core and are confined to the workspace
// already. Without bwrap the flag is refused at start: a sandbox that silently does nothing is worse
// than none.
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { UserError } from "../contract/errors.ts";
import { SANDBOX_EXEC, seatbeltArgv, seatbeltAvailable } from "./sandbox-macos.ts";

export interface SandboxSpec {
  mode: "workspace-write";
  network: boolean;
  /** the bwrap executable (on macOS: sandbox-exec) */
  bwrap: string;
  /** bwrap (Linux, the default) or seatbelt (macOS sandbox-exec) */
  engine?: "bwrap" | "seatbelt";
  /** directories replaced by an empty one inside the sandbox (config_dir: auth.json holds API keys) */
  hide: string[];
  /**
   * directories commands may read though the private /tmp would cover them: the session's folders, whose
   * saved outputs the bash result points the model at (they lie under /tmp when I_DATA_DIR does)
   */
  readable?: string[];
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    try {
      if (statSync(p).isFile()) return p;
    } catch {}
  }
  return undefined;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Whether the sandbox can run here: the bwrap path, or why not (one clause, for doctor and errors). */
export function sandboxAvailability(): { bwrap: string; engine?: "seatbelt" } | { problem: string } {
  if (process.platform === "darwin")
    return seatbeltAvailable()
      ? { bwrap: SANDBOX_EXEC, engine: "seatbelt" }
      : { problem: `${SANDBOX_EXEC} is missing` };
  if (process.platform !== "linux")
    return { problem: `not available on ${process.platform} (Linux and macOS only)` };
  const bwrap = onPath("bwrap");
  if (!bwrap)
    return { problem: "bubblewrap (bwrap) is not installed; install it (e.g. apt-get install bubblewrap)" };
  // Installed is not enough: user namespaces may be disabled. Try the very namespaces a command gets.
  const probe = spawnSync(bwrap, [...SANDBOX_BASE, "--", "true"], {
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 5000,
  });
  if (probe.status !== 0) {
    const why =
      probe.stderr?.toString("utf8").trim().split("\n")[0] || probe.error?.message || `exit ${probe.status}`;
    return { problem: `bwrap cannot create its namespaces here: ${why}` };
  }
  return { bwrap };
}

/** `--sandbox VALUE`: the spec, or a one-line UserError (exit 2) when it is malformed or unavailable. */
export function parseSandbox(
  value: string | undefined,
  hide: readonly string[] = [],
  readable: readonly string[] = [],
): SandboxSpec | undefined {
  if (value === undefined || value === "off") return undefined;
  const parts = value.split(",");
  const known =
    parts[0] === "workspace-write" && parts.slice(1).every((p) => p === "network") && parts.length <= 2;
  if (!known)
    throw new UserError(
      `--sandbox: "${value}" is not a sandbox mode; use workspace-write, workspace-write,network or off`,
    );
  const a = sandboxAvailability();
  if ("problem" in a) throw new UserError(`--sandbox: ${a.problem}; or run with --sandbox off`);
  return {
    mode: "workspace-write",
    network: parts.includes("network"),
    bwrap: a.bwrap,
    ...("engine" in a && a.engine ? { engine: a.engine } : {}),
    hide: [...hide],
    ...(readable.length > 0 ? { readable: [...readable] } : {}),
  };
}

/**
 * The spec as a task child receives it (the `sandbox` and `sandbox_readable` of its task context): the
 * mode and the folders commands may read, so the child's bash reads back its own saved outputs too.
 */
export function sandboxForChild(spec: SandboxSpec): { sandbox: string; sandbox_readable?: string[] } {
  return {
    sandbox: `${spec.mode}${spec.network ? ",network" : ""}`,
    ...(spec.readable?.length ? { sandbox_readable: [...spec.readable] } : {}),
  };
}

const SANDBOX_BASE = [
  "--ro-bind",
  "/",
  "/",
  "--dev",
  "/dev",
  "--proc",
  "/proc",
  "--tmpfs",
  "/tmp",
  "--unshare-pid",
  "--unshare-ipc",
  "--unshare-uts",
  "--unshare-cgroup-try",
  "--die-with-parent",
  // No controlling terminal to inject keystrokes into (TIOCSTI).
  "--new-session",
];

/** The argv that runs `argv` inside the sandbox, with `workspace` writable, in `cwd` (the workspace). */
export function sandboxed(
  spec: SandboxSpec,
  workspace: string,
  argv: readonly string[],
  cwd = workspace,
): [string, ...string[]] {
  // macOS: the command's directory is the spawn's own cwd; only what it may write is the profile's.
  if (spec.engine === "seatbelt") {
    const t = process.env.TMPDIR;
    const temp = [t, "/private/tmp", "/private/var/folders"].filter((d): d is string => !!d && isDir(d));
    return seatbeltArgv(
      [workspace, ...temp],
      spec.hide.filter((d) => isDir(d)),
      spec.network,
      argv,
    );
  }
  return [
    spec.bwrap,
    ...SANDBOX_BASE,
    ...(spec.network ? [] : ["--unshare-net"]),
    // Read-only is not enough for the config directory: auth.json is readable by its owner.
    ...spec.hide.filter((d) => isDir(d)).flatMap((d) => ["--tmpfs", d]),
    // The temp dir commands are told to use (TMPDIR) stays theirs to write: its own, when it is not /tmp.
    ...tempBinds(),
    ...(spec.readable ?? []).filter((d) => isDir(d)).flatMap((d) => ["--ro-bind", d, d]),
    // After the /tmp tmpfs, so a workspace under /tmp is the real directory, writable.
    "--bind",
    workspace,
    workspace,
    "--chdir",
    cwd,
    "--",
    ...argv,
  ];
}

/** TMPDIR inside the sandbox: the real one bound writable, or (under /tmp) made in the private /tmp. */
function tempBinds(): string[] {
  const t = process.env.TMPDIR;
  if (!t?.startsWith("/") || !isDir(t)) return [];
  return t === "/tmp" || t.startsWith("/tmp/") ? ["--dir", t] : ["--bind", t, t];
}

/**
 * The sandbox a run gets when --sandbox is not given: workspace-write with the network (as codex) where
 * bubblewrap runs, unless config.json says otherwise; where it cannot run, none, and `notice` says why.
 */
export function defaultSandbox(
  settings: { mode?: "workspace-write" | "off"; network?: boolean } | undefined,
  hide: readonly string[],
  notice: (line: string) => void,
  readable: readonly string[] = [],
): SandboxSpec | undefined {
  if (settings?.mode === "off") return undefined;
  const a = sandboxAvailability();
  if ("problem" in a) {
    notice(
      `sandbox off: ${a.problem}; bash runs unsandboxed (the guard still asks before destructive commands; set "sandbox": {"mode": "off"} in config.json to silence this)`,
    );
    return undefined;
  }
  return {
    mode: "workspace-write",
    network: settings?.network ?? true,
    bwrap: a.bwrap,
    ...("engine" in a && a.engine ? { engine: a.engine } : {}),
    hide: [...hide],
    ...(readable.length > 0 ? { readable: [...readable] } : {}),
  };
}
