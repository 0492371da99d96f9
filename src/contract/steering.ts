// Messages typed while a turn runs. The console appends one queue line per message to a file; the steering
// module hands each line out once, on `steer`, at the next safe point of the turn.
import { z } from "zod";

/** One line of the queue file, and one entry of the `steer` reply: `{"id":"…","text":"…"}`. */
export const SteerMessage = z.looseObject({ id: z.string().min(1), text: z.string() });
export type SteerMessage = z.infer<typeof SteerMessage>;

/**
 * `steer` data, request and reply alike: the core starts with no messages and each module of the pipeline
 * appends its own. A plain string is accepted for replacements that keep no ids; no `messages` means none.
 */
export const SteerData = z.lazy(() =>
  z.looseObject({ messages: z.array(z.union([z.string(), SteerMessage])).optional() }),
);
export type SteerData = z.infer<typeof SteerData>;
export const SteerReply = SteerData;
