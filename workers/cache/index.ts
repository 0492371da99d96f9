// The built-in `cache` module: on `before_request`, adds prompt-cache breakpoint hints for providers that need
// them (`hints.cache_breakpoints`), leaving every other field — and other modules' hints — untouched.
import { BeforeRequestData } from "../../src/contract/hooks.ts";
import { MODULES } from "../../src/contract/registry.ts";
import { parseHookData } from "../sdk/hook-data.ts";
import { defineWorkerModule } from "../sdk/module.ts";
import { cacheBreakpoints, EXPLICIT_CACHE_PROVIDERS } from "./breakpoints.ts";

export const cacheModule = defineWorkerModule({
  name: "cache",
  payloads: MODULES.cache.payloads,
  hooks: {
    before_request: (data) => {
      const req = parseHookData("before_request", BeforeRequestData, data);
      if (!EXPLICIT_CACHE_PROVIDERS.includes(req.provider)) return data;
      const roles = req.history_summary?.roles ?? req.messages?.map((m) => m.role);
      if (!roles) throw new Error("before_request: the data holds neither messages nor a history_summary");
      const marks = cacheBreakpoints(roles);
      if (marks.length === 0) return data;
      return { ...data, hints: { ...req.hints, cache_breakpoints: marks } };
    },
  },
});
