// The worker SDK as one import: `import { defineWorkerModule, serve } from "@i-agent/worker-sdk"`. It carries
// the contract too (history, hook schemas, the module registry), so a worker needs nothing else.
export * from "../../src/contract/index.ts";
// History helpers every compactor needs (where a cut may fall, the one history check), from the shared lib.
export * from "../../src/lib/tool-batches.ts";
export * from "../../src/lib/validate-history.ts";
export * from "./hook-data.ts";
export * from "./module.ts";
export * from "./read-text.ts";
export * from "./serve.ts";
export * from "./summary-prompt.ts";
export * from "./system-prompt.ts";
export * from "./text-limits.ts";
export * from "./tool.ts";
export * from "./worker-env.ts";
export * from "./workspace-path.ts";
