// The macOS sandbox: sandbox-exec (Seatbelt) with a workspace-write profile, the counterpart of the
// bubblewrap one on Linux: everything readable except config_dir (auth.json), writes only to the
// workspace and the temp dirs, network unless off. Paths are passed as -D parameters, never spliced
// into the profile text, so a quote or parenthesis in a path cannot change the policy.
// Not testable on the Linux machines this is built on; written to Apple's documented SBPL and said so
// in docs/guard.md.
import { statSync } from "node:fs";

export const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

/** Whether sandbox-exec is there (it is on every macOS since 10.5, deprecated but working). */
export function seatbeltAvailable(): boolean {
  try {
    return statSync(SANDBOX_EXEC).isFile();
  } catch {
    return false;
  }
}

/** The profile: `WRITABLE_n` and `HIDDEN_n` are -D parameters (see seatbeltArgv). */
export function seatbeltProfile(writable: number, hidden: number, network: boolean): string {
  const writes = Array.from({ length: writable }, (_, i) => `(subpath (param "WRITABLE_${i}"))`).join(" ");
  const hides = Array.from({ length: hidden }, (_, i) => `(subpath (param "HIDDEN_${i}"))`).join(" ");
  return [
    "(version 1)",
    "(deny default)",
    "(allow process-exec process-fork)",
    "(allow signal (target same-sandbox))",
    "(allow process-info* (target same-sandbox))",
    "(allow sysctl-read)",
    "(allow mach-lookup)",
    "(allow ipc-posix-shm)",
    "(allow pseudo-tty)",
    "(allow file-read*)",
    ...(hidden > 0 ? [`(deny file-read* ${hides})`] : []),
    `(allow file-write* ${writes} (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))`,
    '(allow file-ioctl (literal "/dev/tty"))',
    network
      ? "(allow network*)"
      : '(allow network* (remote unix-socket (path-literal "/private/var/run/mDNSResponder")))',
  ].join("\n");
}

/** The argv running `argv` under sandbox-exec with `writable` dirs writable and `hidden` unreadable. */
export function seatbeltArgv(
  writable: readonly string[],
  hidden: readonly string[],
  network: boolean,
  argv: readonly string[],
): [string, ...string[]] {
  const params = [
    ...writable.flatMap((d, i) => ["-D", `WRITABLE_${i}=${d}`]),
    ...hidden.flatMap((d, i) => ["-D", `HIDDEN_${i}=${d}`]),
  ];
  return [
    SANDBOX_EXEC,
    "-p",
    seatbeltProfile(writable.length, hidden.length, network),
    ...params,
    "--",
    ...argv,
  ];
}
