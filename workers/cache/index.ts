// The built-in `cache` module: on `before_request`, adds prompt-cache breakpoint hints for providers that need
// them (`hints.cache_breakpoints`), leaving every other field — and other modules' hints — untouched.
import { BeforeRequestData } from "../../src/contract/hooks.ts";
import { parseHookData } from "../sdk/hook-data.ts";
import { defineWorkerModule } from "../sdk/module.ts";
import { cacheBreakpoints, EXPLICIT_CACHE_PROVIDERS } from "./breakpoints.ts";

export const cacheModule = defineWorkerModule({
  name: "cache",
  hooks: {
    before_request: (data) => {
      const req = parseHookData("before_request", BeforeRequestData, data);
      if (!EXPLICIT_CACHE_PROVIDERS.includes(req.provider)) return data;
      const marks = cacheBreakpoints(req.messages.map((m) => m.role));
      if (marks.length === 0) return data;
      return { ...data, hints: { ...req.hints, cache_breakpoints: marks } };
    },
  },
});
