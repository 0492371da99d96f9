// API keys out of /proc/<pid>/environ. On Linux a process's initial environment stays readable in
// /proc/PID/environ for its whole life (by every process of the same user), and deleting a variable from
// process.env does not change it: a tool command could print the keys with `tr '\0' '\n' <
// /proc/$PPID/environ`. /proc/PID/environ shows the bytes of the environment strings where exec put
// them, in the process's own memory. So at start, before any child exists, `i` takes the credential
// variables into memory (heldCredentials, where only the core's provider code asks for them), removes
// them from process.env, and blanks their strings in place through /proc/self/mem: same process, no
// second start. Where that write is refused (a hardened kernel), it falls back to handing the keys through
// a pipe to a fresh image of itself (execve via Bun's FFI: same pid and terminal) whose environment has
// none of them; the new image reads the pipe once and closes it. No file, no argv, nothing a child
// inherits.
//
// Elsewhere (macOS has no /proc/PID/environ; Windows) `i` only removes them from process.env; tool
// commands never get them in their own environment either way.
import { closeSync, openSync, readFileSync, readSync, writeSync } from "node:fs";
import { procStat } from "./proc-stat.ts";
import { runtimeName, selfArgv } from "./runtime.ts";

export const CREDENTIAL_ENV = [
  "I_API_KEY",
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  // the cloud providers' secrets (their non-secret settings, like AWS_PROFILE, stay visible)
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AZURE_OPENAI_API_KEY",
  "AZURE_OPENAI_AD_TOKEN",
  "OPENROUTER_API_KEY",
] as const;
const FD_VAR = "I_CREDENTIALS_FD";

const held: Record<string, string> = {};

/** The credential variables `i` started with (from the pipe after a re-exec, else from the environment). */
export function credentialEnv(): NodeJS.ProcessEnv {
  return { ...process.env, ...held };
}

/** Hold credentials received another way (a child task's, from its parent's broker). */
export function holdCredentials(values: Record<string, string>): void {
  for (const k of CREDENTIAL_ENV) if (typeof values[k] === "string") held[k] = values[k];
}

/** The credential variables held, for a child task's hand-over. */
export function heldCredentials(): Record<string, string> {
  const out: Record<string, string> = {};
  const env = credentialEnv();
  for (const k of CREDENTIAL_ENV) if (typeof env[k] === "string") out[k] = env[k];
  return out;
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
 * Blank the `names=…` strings of this process's initial environment in its own memory, so
 * /proc/self/environ no longer shows them. True when none of them is visible there afterwards.
 */
export function blankInitialEnviron(names: readonly string[]): boolean {
  try {
    const field = procStat("self");
    if (!field) return false;
    // env_start and env_end are fields 50 and 51.
    const start = Number(field(50));
    const end = Number(field(51));
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) return false;
    const fd = openSync("/proc/self/mem", "r+");
    try {
      const buf = Buffer.alloc(end - start);
      readSync(fd, buf, 0, buf.length, start);
      let at = 0;
      while (at < buf.length) {
        let stop = buf.indexOf(0, at);
        if (stop === -1) stop = buf.length;
        const eq = buf.indexOf(61, at); // "="
        const name = eq !== -1 && eq < stop ? buf.toString("latin1", at, eq) : "";
        if (names.includes(name)) {
          buf.fill(0, at, stop);
          writeSync(fd, buf, at, stop - at, start + at);
        }
        at = stop + 1;
      }
    } finally {
      closeSync(fd);
    }
    const now = readFileSync("/proc/self/environ", "latin1").split("\0");
    return !now.some((e) => names.some((n) => e.startsWith(`${n}=`)));
  } catch {
    return false;
  }
}

/**
 * Take the credential variables out of this process's environment (see the top of the file). Returns
 * undefined when done (or nothing to do); when the keys could not be hidden, the reason. May not return
 * at all: the execve fallback replaces the process.
 */
export async function shedCredentials(args: readonly string[]): Promise<string | undefined> {
  const present = CREDENTIAL_ENV.filter((k) => process.env[k] !== undefined);
  if (present.length === 0) return undefined;
  if (process.platform !== "linux") {
    for (const k of present) {
      held[k] = process.env[k] as string;
      delete process.env[k];
    }
    return undefined;
  }
  // Read before blanking: Deno's process.env reads the live environment, which blanking empties.
  const values = present.map((k) => [k, process.env[k] as string] as const);
  if (process.env.I_TEST_CREDENTIALS_VIA !== "exec" && blankInitialEnviron(present)) {
    for (const [k, v] of values) {
      held[k] = v;
      delete process.env[k];
    }
    return undefined;
  }
  if (runtimeName !== "bun") return "/proc/self/mem is not writable and there is no FFI to re-execute";
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
