// A tool declared at run time (an MCP server's) streams its progress while the call runs; each new figure
// becomes a line of the tool's output, which the console's activity line shows.
import { CallProgress } from "../contract/runtime-tools.ts";
import type { ToolReport } from "../tools/types.ts";

/** A server may notify many times a second: at most one line this often, and the latest figure wins. */
export const PROGRESS_LINE_MS = 1_000;

/** `progress 3/5: copying` */
export function progressLine(p: CallProgress): string {
  const of = p.total !== undefined ? `${p.progress}/${p.total}` : `${p.progress}`;
  return `progress ${of}${p.message ? `: ${p.message}` : ""}`;
}

export interface ProgressLines {
  /** one `{id, progress}` message of the call (a shape other than CallProgress is ignored) */
  onProgress(progress: Record<string, unknown>): void;
  /** the call ended: a line still waiting is dropped */
  stop(): void;
}

export function progressLines(report: (r: ToolReport) => void, everyMs = PROGRESS_LINE_MS): ProgressLines {
  let last = "";
  let shownAt = Number.NEGATIVE_INFINITY;
  let pending: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const show = (line: string) => {
    pending = undefined;
    if (line === last) return;
    last = line;
    shownAt = Date.now();
    report({ kind: "output", text: `${line}\n` });
  };
  return {
    onProgress(progress) {
      const p = CallProgress.safeParse(progress);
      if (!p.success) return;
      const wait = shownAt + everyMs - Date.now();
      if (wait <= 0) return show(progressLine(p.data));
      pending = progressLine(p.data);
      timer ??= setTimeout(() => {
        timer = undefined;
        if (pending !== undefined) show(pending);
      }, wait);
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending = undefined;
    },
  };
}
