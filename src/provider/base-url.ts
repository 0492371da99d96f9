// The one check of a model endpoint's base URL, shared by option resolution (which names where the value
// came from) and createProvider (which library users call directly): it must parse and speak http(s), and
// carry no user name or password. Credentials belong in the key sources (which are kept out of workers and
// logs); a base URL is recorded in the session and shown on screen, so one with userinfo is refused.

/** The URL with any user name and password replaced, for messages about it. */
function redacted(url: URL): string {
  if (!url.username && !url.password) return url.href;
  const safe = new URL(url.href);
  safe.username = "***";
  safe.password = "";
  return safe.href;
}

/** Why `baseUrl` cannot be a model endpoint, or undefined when it can. */
export function baseUrlProblem(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return `base URL "${baseUrl}" is not a valid URL`;
  }
  if (url.username || url.password)
    return `base URL "${redacted(url)}" contains a user name or password; remove it and put the key in I_API_KEY or auth.json`;
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return `base URL "${baseUrl}" must start with http:// or https://`;
  return undefined;
}
