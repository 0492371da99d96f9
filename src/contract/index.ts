// The contract as one import, for the worker SDK package and outside authors. The core imports the files
// directly (loading every schema at startup would cost `i --version` time for nothing).
export * from "./compaction.ts";
export * from "./compactions.ts";
export * from "./config.ts";
export * from "./errors.ts";
export * from "./events.ts";
export * from "./history.ts";
export * from "./hooks.ts";
export * from "./mcp.ts";
export * from "./protocol.ts";
export * from "./registry.ts";
export * from "./runtime-resources.ts";
export * from "./runtime-tools.ts";
export * from "./steering.ts";
export * from "./usage.ts";
