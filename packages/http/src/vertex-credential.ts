/**
 * A Google service-account key file (the JSON `gcloud iam service-accounts keys create` writes), reduced to
 * what the token exchange needs. Google's reference: developers.google.com/identity/protocols/oauth2/
 * service-account ("Preparing to make an authorized API call": the JWT's iss, scope, aud = token_uri).
 */
export interface ServiceAccount {
  readonly clientEmail: string;
  readonly privateKey: string;
  readonly privateKeyId: string | undefined;
  /** Where the signed assertion is exchanged; Google's is https://oauth2.googleapis.com/token. */
  readonly tokenUri: string;
  readonly projectId: string | undefined;
}

/** What a Vertex credential is: a service account to exchange, or a bearer token to send as is. */
export type VertexCredential =
  | { readonly kind: "service-account"; readonly account: ServiceAccount }
  | { readonly kind: "token"; readonly token: string };

export const GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token";
const TOKEN = /^[\x21-\x7e]+$/;

/**
 * Reads a credential: JSON text is a service-account key (refused unless `type` is `service_account` with a
 * client email and a PEM private key), anything else a bearer token (printable ASCII, no spaces). The
 * reason never quotes the credential.
 */
export function parseVertexCredential(text: string): VertexCredential | { problem: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { problem: "must not be empty" };
  if (!trimmed.startsWith("{")) {
    if (!TOKEN.test(trimmed)) return { problem: "a bearer token must be printable ASCII without spaces" };
    return { kind: "token", token: trimmed };
  }
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    return { problem: "is not valid JSON (expected a service-account key file)" };
  }
  const key = typeof json === "object" && json !== null ? (json as Record<string, unknown>) : {};
  if (key.type !== "service_account")
    return { problem: 'must be a service-account key ("type": "service_account")' };
  const clientEmail = stringField(key, "client_email");
  const privateKey = stringField(key, "private_key");
  if (!clientEmail) return { problem: "the service-account key has no client_email" };
  if (!privateKey?.includes("-----BEGIN PRIVATE KEY-----"))
    return { problem: "the service-account key has no PEM (PKCS#8) private_key" };
  const tokenUri = stringField(key, "token_uri") ?? GOOGLE_TOKEN_URI;
  if (!isHttpUrl(tokenUri)) return { problem: "the service-account key's token_uri is not an http(s) URL" };
  return {
    kind: "service-account",
    account: {
      clientEmail,
      privateKey,
      privateKeyId: stringField(key, "private_key_id"),
      tokenUri,
      projectId: stringField(key, "project_id"),
    },
  };
}

function stringField(record: Record<string, unknown>, name: string): string | undefined {
  const value = record[name];
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}
