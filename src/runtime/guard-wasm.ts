// The guard's two WASM files (web-tree-sitter's runtime, tree-sitter's bash grammar), as paths Bun
// resolves at build time: in a `bun build --compile` executable they are embedded (served from its
// virtual filesystem); from source they are the files in node_modules. Bun-only syntax, so this file is
// imported only under Bun (the guard's parser resolves the packages itself elsewhere).

import bash from "tree-sitter-bash/tree-sitter-bash.wasm" with { type: "file" };
import runtime from "web-tree-sitter/web-tree-sitter.wasm" with { type: "file" };

export const GUARD_WASM: { runtime: string; bash: string } = { runtime, bash };
