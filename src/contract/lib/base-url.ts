// The one check of a model endpoint's base URL, shared by option resolution (which names where the value
// came from) and createProvider (which library users call directly): it must parse and speak http(s).

/** Why `baseUrl` cannot be a model endpoint, or undefined when it can. */
export function baseUrlProblem(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return `base URL "${baseUrl}" is not a valid URL`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return `base URL "${baseUrl}" must start with http:// or https://`;
  return undefined;
}
