// The providers that sign with a cloud's own credentials instead of an API key: Bedrock (AWS keys and
// profiles) and Vertex AI (Google service accounts and application-default credentials). Finding them is
// cheap and synchronous, so a run without them is refused with one line before anything starts.
import type { CloudSettings } from "../contract/cloud-config.ts";
import type { ProviderName } from "../contract/config.ts";
import { resolveAwsCredentials } from "./bedrock/aws-credentials.ts";
import { resolveGoogleCredentials } from "./vertex/google-credentials.ts";

export type CloudProvider = "bedrock" | "vertex";

/** What stands for the key of a cloud provider: its credentials are read by the provider itself. */
export const CLOUD_KEY = "cloud-credentials";

/** An Entra ID bearer token (AZURE_OPENAI_AD_TOKEN) travels as the key with this mark. */
export const ENTRA_PREFIX = "entra:";

export function isCloudProvider(p: ProviderName): p is CloudProvider {
  return p === "bedrock" || p === "vertex";
}

/** Where the credentials were found (throws a UserError when there are none); a local base URL needs none. */
export function locateCloudCredentials(
  provider: CloudProvider,
  env: NodeJS.ProcessEnv,
  cloud: CloudSettings,
): { key: string; source: string } {
  if (provider === "bedrock") {
    const c = resolveAwsCredentials(env, cloud.bedrock);
    return { key: CLOUD_KEY, source: `${c.source}, region ${c.region}` };
  }
  const g = resolveGoogleCredentials(env, cloud.vertex);
  return { key: CLOUD_KEY, source: `${g.file}, project ${g.project}, location ${g.location}` };
}
