// What the user typed must survive a console that could not start: each line goes into the workspace's
// input history (↑ at the next prompt recalls it) and is shown, so nothing typed is lost with the error.
import { InputHistory } from "./input/history.ts";

/** Keep `texts` in the input history of `workspace`; returns the lines to show (one per text). */
export function keepUnsent(texts: string[], workspace: string, dataDir: string): string[] {
  const kept = texts.filter((t) => t.trim() !== "");
  if (kept.length === 0) return [];
  const history = InputHistory.forWorkspace(dataDir, workspace);
  for (const t of kept) history.add(t);
  const where = history.problem ? "" : ", kept in the input history (↑ recalls it)";
  return kept.map((t) => `not sent${where}: ${t}`);
}
