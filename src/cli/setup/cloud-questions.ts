// The setup's questions for the clouds that need more than a key: Vertex AI's (in their own file), which
// AWS profile (or the environment's keys) and region Bedrock uses, an Azure resource's endpoint, API
// version and deployment. A profile is checked as a run would read it, and only its name is kept: the
// secret stays where it is.
import type { AzureConfig, BedrockConfig } from "../../contract/cloud-config.ts";
import { errorMessage } from "../../contract/errors.ts";
import { AZURE_DEFAULT_API_VERSION } from "../../provider/azure/index.ts";
import { awsFiles, awsProfiles, resolveAwsCredentials } from "../../provider/bedrock/aws-credentials.ts";
import { sanitize } from "../../terminal/sanitize.ts";
import { type AskIo, askValid, chooseOption, shown } from "./ask.ts";
import { type SetupCloud, savedCloud } from "./setup-files.ts";
import { askVertex } from "./vertex-questions.ts";

// What a profile must not be checked with: the environment's own keys, profile and region.
const AWS_OVERRIDES = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"];

/** Undefined when `profile` gives usable keys; otherwise why not, in one line. */
function profileProblem(env: NodeJS.ProcessEnv, profile: string): string | undefined {
  const profiles = awsProfiles(env);
  if (!profiles.has(profile)) {
    const { credFile, configFile } = awsFiles(env);
    const known = [...profiles.keys()];
    return `AWS profile ${shown(profile)} is not in ${credFile} or ${configFile}${known.length ? ` (profiles there: ${known.map((k) => sanitize(k)).join(", ")})` : ""}; choose one, or run \`aws configure --profile NAME\` first`;
  }
  const clean: NodeJS.ProcessEnv = { ...env };
  for (const k of AWS_OVERRIDES) delete clean[k];
  try {
    resolveAwsCredentials(clean, { profile, region: "us-east-1" });
    return undefined;
  } catch (err) {
    return sanitize(errorMessage(err).replace(/^bedrock: /, ""));
  }
}

async function askAwsProfile(
  io: AskIo,
  env: NodeJS.ProcessEnv,
  prev: BedrockConfig,
): Promise<string | undefined> {
  const envKeys = Boolean(env.AWS_ACCESS_KEY_ID?.trim());
  const profiles = [...awsProfiles(env).keys()];
  const { credFile, configFile } = awsFiles(env);
  if (!envKeys && profiles.length === 0)
    io.write(
      `no AWS credentials found: none in the environment, no profile in ${credFile} or ${configFile}\n`,
    );
  const fromEnv = { label: "the keys in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (environment)" };
  // an option without a profile, other than the environment's keys, has the name typed next
  const options: { label: string; profile?: string }[] = [
    ...(envKeys ? [fromEnv] : []),
    ...profiles.map((p) => ({ label: `profile ${sanitize(p)}`, profile: p })),
    { label: "another profile: type its name" },
  ];
  const wanted = env.AWS_PROFILE?.trim() || prev.profile;
  const listed = options.findIndex((o) => wanted && o.profile === wanted);
  const at = Math.max(listed, 0);
  for (;;) {
    const pick = await chooseOption(io, "Which AWS credentials?", options, at);
    if (pick === fromEnv) return undefined;
    const profile =
      pick.profile ??
      (await askValid(io, "AWS profile name", prev.profile, (a) =>
        /^[\w.@+-]+$/.test(a) ? undefined : `${shown(a)} is not a profile name`,
      ));
    const problem = profileProblem(env, profile);
    if (problem === undefined) {
      if (env.AWS_PROFILE?.trim() && env.AWS_PROFILE.trim() !== profile)
        io.write(
          `note: AWS_PROFILE is set (${sanitize(env.AWS_PROFILE.trim())}) and is read first; unset it\n`,
        );
      return profile;
    }
    io.write(`${problem}\n`);
  }
}

async function askBedrock(io: AskIo, env: NodeJS.ProcessEnv, prev: BedrockConfig): Promise<BedrockConfig> {
  const profile = await askAwsProfile(io, env, prev);
  const own = profile ? awsProfiles(env).get(profile)?.region : undefined;
  const region = await askValid(
    io,
    "AWS region",
    env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || own || prev.region || "us-east-1",
    (a) =>
      /^[a-z]{2}(-gov|-iso[a-z]*)?-[a-z]+-\d+$/.test(a)
        ? undefined
        : `${shown(a)} is not an AWS region; give one like us-east-1 or eu-central-1`,
  );
  return { region, ...(profile ? { profile } : {}) };
}

async function askAzure(io: AskIo, env: NodeJS.ProcessEnv, prev: AzureConfig): Promise<AzureConfig> {
  const endpoint = await askValid(
    io,
    "Resource endpoint (like https://NAME.openai.azure.com)",
    env.AZURE_OPENAI_ENDPOINT?.trim() || prev.endpoint,
    (a) =>
      /^https?:\/\/[^\s/]+/.test(a) && URL.canParse(a)
        ? undefined
        : `${shown(a)} is not an https:// URL; give the endpoint shown under Keys and Endpoint, like https://NAME.openai.azure.com`,
  );
  const apiVersion = await askValid(
    io,
    "API version",
    env.OPENAI_API_VERSION?.trim() || prev.api_version || AZURE_DEFAULT_API_VERSION,
    (a) =>
      /^(\d{4}-\d{2}-\d{2}(-preview)?|v1|latest|preview)$/.test(a)
        ? undefined
        : `${shown(a)} is not an API version; give one like ${AZURE_DEFAULT_API_VERSION} or 2025-04-01-preview`,
  );
  return {
    endpoint: endpoint.replace(/\/+$/, ""),
    api_version: apiVersion,
    ...(prev.deployment ? { deployment: prev.deployment } : {}),
  };
}

/**
 * The cloud's own questions for `choice`, or undefined when it needs none beyond a key. Defaults: this
 * setup's earlier answers, else what config.json in `dir` holds.
 */
export async function askCloud(
  io: AskIo,
  dir: string,
  choice: string,
  env: NodeJS.ProcessEnv,
  prev: SetupCloud | undefined,
): Promise<SetupCloud | undefined> {
  const same = <S extends SetupCloud["section"]>(s: S) =>
    ((prev?.section === s ? prev : savedCloud(dir, s))?.values ?? {}) as Extract<
      SetupCloud,
      { section: S }
    >["values"];
  if (choice === "vertex") return { section: "vertex", values: await askVertex(io, env, same("vertex")) };
  if (choice === "bedrock") return { section: "bedrock", values: await askBedrock(io, env, same("bedrock")) };
  if (choice === "azure") return { section: "azure", values: await askAzure(io, env, same("azure")) };
  return undefined;
}

/** Azure: the deployment that serves `model` (by default named after it). */
export async function askDeployment(io: AskIo, cloud: SetupCloud | undefined, model: string): Promise<void> {
  if (cloud?.section !== "azure") return;
  cloud.values.deployment = await askValid(
    io,
    "Deployment name (as in Azure AI Foundry)",
    cloud.values.deployment ?? model,
    (a) =>
      /^[\w.-]{1,64}$/.test(a)
        ? undefined
        : `${shown(a)} is not a deployment name: letters, digits, "-", "_" and "." only`,
  );
}
