// `/compactions [N]` and `/uncompact [N|undo]`: what each compaction of this session kept and dropped,
// read from its log, and the history before one of them put back when it fits the current model.
import type { RestoreOutcome } from "../agent/agent-session.ts";
import type { CompactionsReport } from "../contract/compactions.ts";
import { errorMessage } from "../contract/errors.ts";
import { compactionDetailLines, compactionListLines, type ViewStyle } from "./compactions-view.ts";

/** What these commands print with. */
export interface CommandUi extends ViewStyle {
  print(...lines: string[]): void;
  yellow(s: string): string;
  red(s: string): string;
  width(): number;
}

/** What they ask of the session. */
export interface CompactionTarget {
  compactions(): CompactionsReport;
  uncompact(n?: number): Promise<RestoreOutcome>;
  recompact(): RestoreOutcome;
}

/** A positive whole number written by the user, or undefined for anything else. */
function whole(text: string): number | undefined {
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

export function showCompactions(args: string, target: CompactionTarget, ui: CommandUi): void {
  const report = target.compactions();
  if (args === "") {
    ui.print(...compactionListLines(report, ui));
    return;
  }
  const n = whole(args);
  const c = n === undefined ? undefined : report.compactions[n - 1];
  if (!c) {
    const count = report.compactions.length;
    ui.print(
      ui.yellow(
        count === 0
          ? "this session has not been compacted"
          : `/compactions takes a compaction number from 1 to ${count}, not "${ui.clean(args)}"`,
      ),
    );
    return;
  }
  ui.print(...compactionDetailLines(c, ui.width(), ui));
}

export async function uncompactCommand(args: string, target: CompactionTarget, ui: CommandUi): Promise<void> {
  const undo = args === "undo";
  const n = args === "" || undo ? undefined : whole(args);
  if (!undo && args !== "" && n === undefined) {
    ui.print(
      ui.yellow(`/uncompact takes a compaction number (see /compactions) or "undo", not "${ui.clean(args)}"`),
    );
    return;
  }
  try {
    const r = undo ? target.recompact() : await target.uncompact(n);
    if (!r.ok) ui.print(ui.yellow(`nothing restored: ${ui.clean(r.why)}`));
    else if (undo)
      ui.print(
        ui.dim(
          `compaction ${r.compaction} is back: the compacted history with everything after it (${-r.messages} messages fewer); /uncompact ${r.compaction} undoes it again`,
        ),
      );
    else
      ui.print(
        ui.dim(
          `restored the history before compaction ${r.compaction}: ${r.messages} more messages, about ${r.tokens} tokens; /uncompact undo puts the compaction back`,
        ),
      );
  } catch (err) {
    ui.print(ui.red(`✗ nothing restored: ${ui.clean(errorMessage(err))}`));
  }
}
