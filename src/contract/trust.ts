// config_dir/trust.json: which of a workspace's own config files (.mcp.json, .i/hooks.json, .i/agents/…)
// the user accepted, and the content they accepted. A project's files are untrusted until accepted; an
// acceptance covers exactly the content it fingerprinted, so any change to the file asks again.
import { z } from "zod";

export const TRUST_FILE = "trust.json";

export const TrustedFile = z.lazy(() =>
  z.strictObject({
    /** sha256 (hex) of what was accepted: a file's bytes, or a directory's listing and contents */
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    /** when it was accepted (ISO 8601) */
    accepted_at: z.string(),
  }),
);

export const TrustFile = z.lazy(() =>
  z.strictObject({
    $schema: z.string().optional(),
    $comment: z.string().optional(),
    /** by the workspace's real absolute path, then by the file's path relative to it (forward slashes) */
    workspaces: z.record(z.string(), z.strictObject({ files: z.record(z.string(), TrustedFile) })),
  }),
);
export type TrustFile = z.infer<typeof TrustFile>;
