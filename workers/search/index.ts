// The search module: `grep` (contents) and `find` (file names) over the workspace, never outside it.
import { FindInput, GrepInput } from "../../src/contract/registry.ts";
import { defineWorkerModule } from "../sdk/module.ts";
import { registryToolDecl } from "../sdk/registry-decl.ts";
import { parseToolArgs } from "../sdk/tool-args.ts";
import { find } from "./find.ts";
import { grep } from "./grep.ts";

export function createSearchModule() {
  return defineWorkerModule({
    name: "search",
    hooks: {},
    tools: [
      {
        decl: registryToolDecl("search", "grep"),
        run: (args, ctx) => {
          const parsed = parseToolArgs("grep", GrepInput, args);
          return parsed.ok ? grep(ctx.workspace, parsed.value) : parsed.error;
        },
      },
      {
        decl: registryToolDecl("search", "find"),
        run: (args, ctx) => {
          const parsed = parseToolArgs("find", FindInput, args);
          return parsed.ok ? find(ctx.workspace, parsed.value) : parsed.error;
        },
      },
    ],
  });
}
