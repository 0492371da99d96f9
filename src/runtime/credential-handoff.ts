// API keys out of /proc/<pid>/environ. On Linux a process's initial environment stays readable in
// /proc/PID/environ for its whole life (by every process of the same user), and deleting a variable from
// process.env does not change it. A tool command could print the keys with `tr '\0' '\n' <
// /proc/$PPID/environ`. So when `i` starts with a credential variable in its environment, it writes the
// credentials into a pipe and replaces itself (execve: same pid, same terminal) with a copy of itself
// whose environment has none of them, only the number of the pipe's read end. The new image reads the
// pipe once, closes it, and keeps the keys in memory (heldCredentials), where only the core's provider
// code asks for them. No file, no argv, nothing a child inherits.
//
// Needs Bun's FFI (execve and pipe from libc). Elsewhere (Deno, Windows, macOS — which has no
// /proc/PID/environ), `i` keeps the variables; tool commands still never get them in their own
// environment.
import { closeSync, readFileSync, writeSync } from "node:fs";
import { runtimeName, selfArgv } from "./runtime.ts";

export const CREDENTIAL_ENV = ["I_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"] as const;
const FD_VAR = "I_CREDENTIALS_FD";

const held: Record<string, string> = {};

/** The credential variables `i` started with (from the pipe after a re-exec, else from the environment). */
export function credentialEnv(): NodeJS.ProcessEnv {
  return { ...process.env, ...held };
}

/**
 * In the re-executed image: read the credentials from the inherited pipe, once, and close it. Returns
 * false when there was nothing to receive.
 */
export function receiveCredentials(): boolean {
  const fdText = process.env[FD_VAR];
  if (fdText === undefined) return false;
  delete process.env[FD_VAR];
  const fd = Number(fdText);
  if (!Number.isInteger(fd) || fd < 3) return false;
  try {
    const parsed = JSON.parse(readFileSync(fd, "utf8")) as Record<string, unknown>;
    for (const k of CREDENTIAL_ENV) if (typeof parsed[k] === "string") held[k] = parsed[k];
  } finally {
    closeSync(fd);
  }
  return true;
}

interface Libc {
  pipe(fds: unknown): number;
  execve(path: unknown, argv: unknown, envp: unknown): number;
}

/**
 * When credential variables are in this process's environment on Linux under Bun: re-execute without
 * them (see the top of the file). Returns only when it did not (nothing to shed, or execve failed: then
 * with the reason, and the process goes on as before).
 */
export async function shedCredentials(args: readonly string[]): Promise<string | undefined> {
  if (process.platform !== "linux" || runtimeName !== "bun") return undefined;
  const present = CREDENTIAL_ENV.filter((k) => process.env[k] !== undefined);
  if (present.length === 0) return undefined;
  let ffi: typeof import("bun:ffi");
  try {
    ffi = await import("bun:ffi");
  } catch (err) {
    return `no FFI: ${(err as Error).message}`;
  }
  const { dlopen, FFIType, ptr } = ffi;
  let libc: Libc;
  try {
    libc = dlopen("libc.so.6", {
      pipe: { args: [FFIType.ptr], returns: FFIType.i32 },
      execve: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
    }).symbols as unknown as Libc;
  } catch (err) {
    return `cannot load libc: ${(err as Error).message}`;
  }
  const fds = new Int32Array(2);
  if (libc.pipe(ptr(fds)) !== 0) return "pipe() failed";
  const [readFd, writeFd] = [fds[0] as number, fds[1] as number];
  const secrets: Record<string, string> = {};
  for (const k of present) secrets[k] = process.env[k] as string;
  // A pipe holds 64 KiB before a write blocks; a few keys are far less.
  writeSync(writeFd, JSON.stringify(secrets));
  closeSync(writeFd);

  const keep: Buffer[] = [];
  const cstr = (s: string) => {
    const b = Buffer.from(`${s}\0`, "utf8");
    keep.push(b);
    return b;
  };
  const list = (xs: readonly string[]) => {
    const a = new BigUint64Array(xs.length + 1);
    xs.forEach((x, i) => {
      a[i] = BigInt(ptr(cstr(x)));
    });
    return a;
  };
  const env: string[] = [];
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !(CREDENTIAL_ENV as readonly string[]).includes(k) && k !== FD_VAR)
      env.push(`${k}=${v}`);
  env.push(`${FD_VAR}=${readFd}`);
  const [prog, ...rest] = selfArgv();
  const argv = [prog as string, ...rest, ...args];
  const argvList = list(argv);
  const envList = list(env);
  libc.execve(ptr(cstr(prog as string)), ptr(argvList), ptr(envList));
  // Only reached when execve failed: keep going with the variables, after closing the pipe.
  closeSync(readFd);
  return "execve failed";
}
