// config.json settings of the cloud providers (gemini, vertex, bedrock, azure, openrouter). Each key
// mirrors the environment variable the cloud's own tools read; the environment wins over config.json, so
// an existing setup works unchanged. Credentials themselves never go here (auth.json, or the cloud's files).
import { z } from "zod";

const Name = z.string().min(1);

export const BedrockConfig = z.lazy(() =>
  z.strictObject({
    /** AWS_REGION / AWS_DEFAULT_REGION, else the profile's region in ~/.aws/config */
    region: Name.optional(),
    /** AWS_PROFILE: a profile of ~/.aws/credentials or ~/.aws/config (default "default") */
    profile: Name.optional(),
  }),
);

export const VertexConfig = z.lazy(() =>
  z.strictObject({
    /** GOOGLE_CLOUD_PROJECT, else the service account's project_id */
    project: Name.optional(),
    /** GOOGLE_CLOUD_LOCATION (default us-central1; "global" for the global endpoint) */
    location: Name.optional(),
    /** GOOGLE_APPLICATION_CREDENTIALS: the path of a service-account JSON key (the key stays in its file) */
    credentials_file: Name.optional(),
  }),
);

export const AzureConfig = z.lazy(() =>
  z.strictObject({
    /** AZURE_OPENAI_ENDPOINT, like https://NAME.openai.azure.com */
    endpoint: z.string().url("not a valid URL; give one like https://NAME.openai.azure.com").optional(),
    /** OPENAI_API_VERSION (default 2024-10-21; the Responses wire uses the v1 API, which takes none) */
    api_version: Name.optional(),
    /** the deployment name (default: the model name) */
    deployment: Name.optional(),
    /** which OpenAI API the deployment is reached through (default chat) */
    wire: z.enum(["chat", "responses"]).optional(),
  }),
);

export const OpenRouterConfig = z.lazy(() =>
  z.strictObject({
    /** sent as HTTP-Referer: the app's URL on openrouter.ai's rankings */
    app_url: z.string().url().optional(),
    /** sent as X-Title: the app's name there (default "i") */
    app_title: Name.optional(),
    /** reasoning effort for models that reason (sent as reasoning.effort) */
    reasoning_effort: z.enum(["minimal", "low", "medium", "high"]).optional(),
    /** OpenRouter's provider routing preferences, sent as the request's `provider` object */
    routing: z
      .strictObject({
        order: z.array(Name).optional(),
        only: z.array(Name).optional(),
        ignore: z.array(Name).optional(),
        allow_fallbacks: z.boolean().optional(),
        require_parameters: z.boolean().optional(),
        data_collection: z.enum(["allow", "deny"]).optional(),
        sort: z.enum(["price", "throughput", "latency"]).optional(),
      })
      .optional(),
  }),
);

export type BedrockConfig = z.infer<typeof BedrockConfig>;
export type VertexConfig = z.infer<typeof VertexConfig>;
export type AzureConfig = z.infer<typeof AzureConfig>;
export type OpenRouterConfig = z.infer<typeof OpenRouterConfig>;

/** The cloud sections of config.json, as the providers receive them. */
export interface CloudSettings {
  bedrock?: BedrockConfig;
  vertex?: VertexConfig;
  azure?: AzureConfig;
  openrouter?: OpenRouterConfig;
}
