// Bun's `with { type: "file" }` imports of the guard's WASM files give their path (src/runtime/guard-wasm.ts).
declare module "web-tree-sitter/web-tree-sitter.wasm" {
  const path: string;
  export default path;
}
declare module "tree-sitter-bash/tree-sitter-bash.wasm" {
  const path: string;
  export default path;
}
