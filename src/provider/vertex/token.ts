// OAuth access tokens for Vertex AI: a service account's JWT exchanged at its token_uri (the JWT bearer
// grant), or an authorized_user's refresh token (gcloud's application-default credentials). A token is
// kept and used until 5 minutes before it expires, then replaced; concurrent requests share one exchange.
import { errorBodyMessage } from "../errors.ts";
import { ProviderError } from "../types.ts";
import { GOOGLE_TOKEN_URI, type GoogleKeyFile } from "./google-credentials.ts";
import { importPrivateKey, signJwt } from "./jwt.ts";

const SCOPE = "https://www.googleapis.com/auth/cloud-platform";
/** replace a token this long before it expires, so none expires in the middle of a request */
export const REFRESH_MARGIN_MS = 5 * 60_000;
const TOKEN_TIMEOUT_MS = 30_000;

interface Held {
  token: string;
  expiresAt: number;
}

/** An OAuth error body's code and description together ("invalid_grant: Invalid JWT Signature."). */
function oauthReason(body: string): string | undefined {
  try {
    const o = JSON.parse(body) as { error?: unknown; error_description?: unknown };
    if (typeof o.error === "string" && typeof o.error_description === "string")
      return errorBodyMessage(`${o.error}: ${o.error_description}`);
  } catch {
    // not JSON
  }
  return undefined;
}

export class GoogleTokenSource {
  private held: Held | undefined;
  private pending: Promise<Held> | undefined;
  private key: Promise<CryptoKey> | undefined;

  constructor(
    private readonly creds: GoogleKeyFile,
    private readonly fetcher: typeof fetch,
    private readonly now: () => number = Date.now,
  ) {}

  async token(): Promise<string> {
    const h = this.held;
    if (h && h.expiresAt - this.now() > REFRESH_MARGIN_MS) return h.token;
    this.pending ??= this.exchange().finally(() => {
      this.pending = undefined;
    });
    this.held = await this.pending;
    return this.held.token;
  }

  private async form(): Promise<URLSearchParams> {
    const c = this.creds;
    if (c.type === "authorized_user") {
      return new URLSearchParams({
        grant_type: "refresh_token",
        client_id: c.client_id,
        client_secret: c.client_secret,
        refresh_token: c.refresh_token,
      });
    }
    this.key ??= importPrivateKey(c.private_key);
    let key: CryptoKey;
    try {
      key = await this.key;
    } catch (err) {
      this.key = undefined;
      throw new ProviderError(
        "auth",
        `vertex: the service account's private_key cannot be used: ${(err as Error).message}; download a new JSON key`,
      );
    }
    const iat = Math.floor(this.now() / 1000);
    const claims = { iss: c.client_email, scope: SCOPE, aud: this.uri(), iat, exp: iat + 3600 };
    return new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion: await signJwt(key, claims, c.private_key_id),
    });
  }

  private uri(): string {
    return this.creds.token_uri ?? GOOGLE_TOKEN_URI;
  }

  private async exchange(): Promise<Held> {
    const body = await this.form();
    const started = this.now();
    const res = await this.fetcher(this.uri(), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: body.toString(),
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    });
    const textBody = await res.text();
    if (!res.ok) {
      const kind = res.status >= 500 ? "server" : "auth";
      const why = oauthReason(textBody) ?? (errorBodyMessage(textBody) || `HTTP ${res.status}`);
      const fix =
        this.creds.type === "authorized_user"
          ? "run `gcloud auth application-default login` again"
          : "check the service account key and that it is not disabled";
      throw new ProviderError(
        kind,
        `vertex: the Google token exchange at ${this.uri()} failed (HTTP ${res.status}): ${why}; ${fix}`,
        res.status,
      );
    }
    let parsed: { access_token?: unknown; expires_in?: unknown };
    try {
      parsed = JSON.parse(textBody) as typeof parsed;
    } catch {
      parsed = {};
    }
    if (typeof parsed.access_token !== "string" || parsed.access_token === "")
      throw new ProviderError(
        "server",
        `vertex: the Google token exchange at ${this.uri()} answered without an access_token`,
      );
    const seconds = typeof parsed.expires_in === "number" ? parsed.expires_in : 3600;
    return { token: parsed.access_token, expiresAt: started + seconds * 1000 };
  }
}
