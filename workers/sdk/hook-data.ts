// Hook data comes from the core and from earlier modules of the pipeline. A module checks the fields it
// relies on with zod; a bad request becomes an error reply naming the field (the host reports it), never a
// crash of the worker.
import type { z } from "zod";

/** `data` parsed by `schema`, or an Error `"<event>: invalid data at <field>: <why>"`. */
export function parseHookData<S extends z.ZodType>(event: string, schema: S, data: unknown): z.infer<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(
    `${event}: invalid data at ${issue?.path.join(".") || "(top)"}: ${issue?.message ?? "invalid"}`,
  );
}
