// The search module: `grep` (contents) and `find` (file names) over the workspace, never outside it.
import { defineWorkerModule } from "../sdk/module.ts";
import { defineTool } from "../sdk/tool.ts";
import { find } from "./find.ts";
import { grep } from "./grep.ts";

export function createSearchModule() {
  return defineWorkerModule({
    name: "search",
    hooks: {},
    tools: [
      defineTool("search", "grep", (args, ctx) => grep(ctx.workspace, args)),
      defineTool("search", "find", (args, ctx) => find(ctx.workspace, args)),
    ],
  });
}
