// Resources a module offers at run time (an MCP server's resources). The console offers them in the `@`
// completion menu as `@SERVER:URI`; a message that mentions one gets its contents attached, read with the
// `resource` event. The list travels with the tool list in the `tools` reply (sent only when the
// module's revision changed), so offering them costs the usual turn nothing.
import { z } from "zod";

export const RESOURCE_EVENT = "resource";

/** One resource on offer: which server (group) has it, its URI, and what it is called there. */
export const RuntimeResourceDecl = z.lazy(() =>
  z.strictObject({
    server: z.string().min(1),
    uri: z.string().min(1),
    name: z.string(),
    description: z.string().optional(),
    mime_type: z.string().optional(),
  }),
);
export type RuntimeResourceDecl = z.infer<typeof RuntimeResourceDecl>;

/** `resource`: read resource `uri` of server `server`. */
export const ResourceRequestData = z.lazy(() =>
  z.object({ server: z.string().min(1), uri: z.string().min(1) }),
);

/**
 * One part of what a read returned: its text, or (binary contents, not sent) how many bytes it has.
 * `cut` says the module shortened the text (it bounds what it sends).
 */
export const ResourceContent = z.lazy(() =>
  z.strictObject({
    uri: z.string(),
    mime_type: z.string().optional(),
    text: z.string().optional(),
    binary_bytes: z.number().int().nonnegative().optional(),
    cut: z.boolean().optional(),
  }),
);
export type ResourceContent = z.infer<typeof ResourceContent>;

export const ResourceReplyData = z.lazy(() =>
  ResourceRequestData.unwrap().extend({ contents: z.array(ResourceContent) }),
);
