// Hook data comes from the core and from earlier modules of the pipeline. A module checks the fields it
// relies on with zod; a bad request becomes an error reply naming the field (the host reports it), never a
// crash of the worker.

import type { z } from "zod";
import { describeIssue } from "../../src/contract/errors.ts";

/** `data` parsed by `schema`, or an Error `"<event>: invalid data: field <field>: <what was expected>"`. */
export function parseHookData<S extends z.ZodType>(event: string, schema: S, data: unknown): z.infer<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new Error(describeIssue(`${event}: invalid data`, parsed.error));
}
