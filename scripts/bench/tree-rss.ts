// Resident memory of a whole process tree (Linux /proc): every ~20 ms it walks the descendants of a root
// pid, sums their RSS and keeps the peak of the sum and of each process. A worker process that starts
// late or is respawned is counted from the sample it first appears in. Elsewhere it reports nothing
// (the benchmarks print "n/a"). Used by scripts/bench/turns.ts and scripts/bench/memory.ts.
//
// RSS counts pages shared between processes in each of them: the core and its built-in worker run the
// same executable, whose mapped code (~40 MB of a compiled `i`) is in memory once but in both RSS
// figures. The sampler also sums PSS (each shared page divided among the processes sharing it), which is
// what the tree really occupies; both peaks are printed.
import { readdirSync, readFileSync } from "node:fs";

export interface ProcPeak {
  cmd: string;
  peak: number;
  /** at the peak: private memory (JS heap, malloc, stacks) and mapped files (the executable's code) */
  anon: number;
  file: number;
}

export interface TreePeak {
  /** the largest sum of RSS over the tree seen in one sample, bytes */
  peak: number;
  /** the largest sum of PSS (shared pages split among their sharers) seen in one sample, bytes */
  pssPeak: number;
  /** per process (pid → command, its own peak RSS and that sample's anonymous / file-backed parts) */
  procs: Map<number, ProcPeak>;
  samples: number;
}

const available = (() => {
  try {
    readFileSync("/proc/self/status", "utf8");
    return true;
  } catch {
    return false;
  }
})();

function children(pid: number): number[] {
  // Each thread lists the children it forked; a Bun process forks from several threads.
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const tid of tids) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim();
      if (text) for (const c of text.split(" ")) out.push(Number(c));
    } catch {}
  }
  return out;
}

/** RSS and its anonymous and file-backed parts (shmem, tiny here, counted in neither part), bytes. */
function rssOf(pid: number): { rss: number; anon: number; file: number } {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return { rss: 0, anon: 0, file: 0 };
  }
  const kb = (field: string) => {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(text);
    return m ? Number(m[1]) * 1024 : 0;
  };
  return { rss: kb("VmRSS"), anon: kb("RssAnon"), file: kb("RssFile") };
}

function cmdline(pid: number): string {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    return argv
      .map((a, i) => (i < 2 ? (a.split("/").pop() ?? a) : a))
      .join(" ")
      .slice(0, 60);
  } catch {
    return "?";
  }
}

function pssBytes(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function rawCmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
}

/**
 * One sample: the tree's total RSS, and each member's. A child whose command line is still its parent's
 * has been forked but has not exec'd its program yet (a bash tool call starting): its resident pages are
 * the parent's, shared copy-on-write, so counting them again would report memory that does not exist.
 */
export function sampleTree(root: number, into: TreePeak): void {
  let total = 0;
  let pss = 0;
  const stack: [pid: number, parentCmd: string][] = [[root, ""]];
  const seen = new Set<number>();
  while (stack.length > 0) {
    const [pid, parentCmd] = stack.pop() as [number, string];
    if (seen.has(pid)) continue;
    seen.add(pid);
    const cmd = rawCmdline(pid);
    if (cmd === parentCmd) continue;
    const { rss, anon, file } = rssOf(pid);
    if (rss === 0) continue;
    total += rss;
    pss += pssBytes(pid);
    let p = into.procs.get(pid);
    if (!p) {
      p = { cmd: cmdline(pid), peak: 0, anon: 0, file: 0 };
      into.procs.set(pid, p);
    }
    if (rss > p.peak) Object.assign(p, { peak: rss, anon, file });
    for (const c of children(pid)) stack.push([c, cmd]);
  }
  into.samples++;
  if (total > into.peak) into.peak = total;
  if (pss > into.pssPeak) into.pssPeak = pss;
}

/** Samples the tree under `root` every `everyMs` until stop() is called; stop() returns the peaks. */
export function watchTree(root: number, everyMs = 20): { stop(): TreePeak | undefined } {
  const peak: TreePeak = { peak: 0, pssPeak: 0, procs: new Map(), samples: 0 };
  if (!available) return { stop: () => undefined };
  sampleTree(root, peak);
  const timer = setInterval(() => sampleTree(root, peak), everyMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

export const mb = (bytes: number) => bytes / (1024 * 1024);

/**
 * "RSS 137.2 MB (i -p … 75.1 [anon 40.2, file 34.9] + i worker … 58.0 [anon 20.1, file 37.9]), PSS …": the
 * peak and each process's own peak with its anonymous and file-backed parts, largest first.
 */
export function describePeak(p: TreePeak | undefined): string {
  if (!p) return "n/a (no /proc)";
  const parts = [...p.procs.values()]
    .filter((x) => x.peak > 4 * 1024 * 1024)
    .sort((a, b) => b.peak - a.peak)
    .map(
      (x) =>
        `${x.cmd} ${mb(x.peak).toFixed(1)} [anon ${mb(x.anon).toFixed(1)}, file ${mb(x.file).toFixed(1)}]`,
    );
  return `RSS ${mb(p.peak).toFixed(1)} MB (${parts.join(" + ")}), PSS ${mb(p.pssPeak).toFixed(1)} MB; ${p.samples} samples`;
}
