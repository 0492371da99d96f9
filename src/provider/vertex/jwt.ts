// A service account's signed JWT (RS256), made with WebCrypto: the PEM private key of the JSON key file
// imported as PKCS#8, the header and claims base64url-encoded, signed with RSASSA-PKCS1-v1_5 over SHA-256.
const b64url = (bytes: Uint8Array) =>
  Buffer.from(bytes).toString("base64").replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
const text = (s: string) => new TextEncoder().encode(s);

function pemBody(pem: string): Uint8Array<ArrayBuffer> {
  const body = pem
    .replace(/-----(BEGIN|END) PRIVATE KEY-----/g, "")
    .replace(/\\n/g, "")
    .replace(/\s+/g, "");
  const bytes = Buffer.from(body, "base64");
  const out = new Uint8Array(new ArrayBuffer(bytes.length));
  out.set(bytes);
  return out;
}

export async function importPrivateKey(pem: string): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    "pkcs8",
    pemBody(pem),
    { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
    false,
    ["sign"],
  );
}

export async function signJwt(
  key: CryptoKey,
  claims: Record<string, unknown>,
  keyId?: string,
): Promise<string> {
  const header = { alg: "RS256", typ: "JWT", ...(keyId ? { kid: keyId } : {}) };
  const input = `${b64url(text(JSON.stringify(header)))}.${b64url(text(JSON.stringify(claims)))}`;
  const sig = new Uint8Array(await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key, text(input)));
  return `${input}.${b64url(sig)}`;
}
