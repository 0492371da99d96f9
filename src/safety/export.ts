// `/export [FILE]` and `i sessions --export ID --format md|html|json`: a session written out to read or
// share. A file that exists already is never overwritten (the name is claimed atomically, by a link).
import { linkSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { UserError } from "../contract/errors.ts";
import type { History } from "../contract/history.ts";
import type { SessionMeta } from "../contract/session.ts";
import { exportDoc } from "./export-doc.ts";
import { toHtml } from "./export-html.ts";
import { toMarkdown } from "./export-md.ts";
import { readParent } from "./fork.ts";

export const EXPORT_FORMATS = ["md", "html", "json"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The format a file name asks for by its extension (.md, .markdown, .html, .htm, .json). */
export function formatOfPath(file: string): ExportFormat | undefined {
  const ext = file.toLowerCase().split(".").pop() ?? "";
  if (ext === "md" || ext === "markdown") return "md";
  if (ext === "html" || ext === "htm") return "html";
  if (ext === "json") return "json";
  return undefined;
}

export function renderExport(
  session: { dir: string; meta: SessionMeta },
  history: History,
  format: ExportFormat,
): string {
  const doc = exportDoc(session.meta, history, readParent(session.dir));
  if (format === "md") return toMarkdown(doc);
  if (format === "html") return toHtml(doc);
  return `${JSON.stringify(doc, null, 2)}\n`;
}

let counter = 0;

/** Write `text` to a new file `path`; a UserError when something is there already. */
export function writeNewFile(path: string, text: string): void {
  const tmp = join(dirname(path), `.i-export.${process.pid}.${++counter}.tmp`);
  writeFileSync(tmp, text, { mode: 0o644, flag: "wx" });
  try {
    linkSync(tmp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST")
      throw new UserError(`${path} exists already; give a new file name (an export never overwrites a file)`);
    throw err;
  } finally {
    unlinkSync(tmp);
  }
}
