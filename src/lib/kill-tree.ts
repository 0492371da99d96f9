// Killing what a process started along with it. On POSIX a child spawned `detached` leads its own
// process group, and one signal to the negative pid reaches everything in it. Windows has no process
// groups: a process's tree is found by its parent ids, which `taskkill /T` walks (and /F ends each one at
// once; a console program has no gentler signal to take). The tree can be walked only while its root
// still runs, so on Windows call this before the root is known to have exited, never after (its pid
// may be another program's by then).
import { spawn } from "node:child_process";

/** The program and arguments that end `pid`'s whole tree on Windows. */
export function treeKillCommand(pid: number): [string, string[]] {
  return ["taskkill", ["/T", "/F", "/PID", String(pid)]];
}

/**
 * End `pid` and what it started: its process group with `sig` (POSIX), its tree through taskkill
 * (Windows, where every signal ends the tree at once). Never throws: a group already gone is no error.
 */
export function killTree(pid: number | undefined, sig: NodeJS.Signals, platform = process.platform): void {
  if (pid === undefined || pid <= 0) return;
  if (platform === "win32") {
    const [prog, args] = treeKillCommand(pid);
    // taskkill missing, or refusing /T (Wine 8's does): at least the process itself.
    const itself = () => {
      try {
        process.kill(pid, sig);
      } catch {}
    };
    try {
      const tk = spawn(prog, args, { stdio: "ignore", windowsHide: true });
      tk.on("error", itself);
      tk.on("exit", (code) => {
        if (code !== 0) itself();
      });
      tk.unref();
    } catch {
      itself();
    }
    return;
  }
  try {
    process.kill(-pid, sig);
  } catch {
    // ESRCH: the group is already gone.
  }
}
