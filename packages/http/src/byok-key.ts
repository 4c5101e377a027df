import { parseAwsCredential } from "./aws-credential.js";
import { parseAzureCredential } from "./azure-credential.js";
import { providerKeyProblem } from "./credential.js";
import { GOOGLE_TOKEN_URI, parseVertexCredential } from "./vertex-credential.js";

/** Room for a service-account key file (about 2.4 kB) or an Azure JSON credential; no API key is longer. */
export const MAX_BYOK_SECRET_LENGTH = 16_384;

/**
 * An account's own credential for a provider as it will be stored and sent, or why it cannot be. Most
 * providers take one API key (a header value: providerKeyProblem). Amazon Bedrock takes an AWS credential as
 * JSON (parseAwsCredential). Google Vertex AI takes a service-account
 * key file or a bearer token, Azure OpenAI a key or Entra token, or JSON naming its own resource
 * (`{"endpoint", "api_key" | "entra_token"}`); JSON is kept minified, so a pasted key file is stored as one
 * line. The reason never contains the secret.
 */
export function byokSecret(providerId: string, secret: string): { secret: string } | { problem: string } {
  const trimmed = secret.trim();
  if (trimmed.length > MAX_BYOK_SECRET_LENGTH)
    return { problem: `must be at most ${MAX_BYOK_SECRET_LENGTH} characters` };
  if (providerId === "amazon-bedrock") {
    const parsed = parseAwsCredential(trimmed);
    return parsed.ok ? { secret: JSON.stringify(JSON.parse(trimmed)) } : { problem: parsed.problem };
  }
  if (providerId === "google-vertex" || providerId === "azure") {
    const parsed = providerId === "azure" ? parseAzureCredential(trimmed) : parseVertexCredential(trimmed);
    if ("problem" in parsed) return { problem: parsed.problem };
    // The edge POSTs a signed assertion to the key file's token_uri: an account's own key file may name only
    // Google's, or the gateway would call any address an account chose (the operator's own key is trusted).
    if (parsed.kind === "service-account" && parsed.account.tokenUri !== GOOGLE_TOKEN_URI)
      return { problem: `the service-account key's token_uri must be ${GOOGLE_TOKEN_URI}` };
    return { secret: trimmed.startsWith("{") ? JSON.stringify(JSON.parse(trimmed)) : trimmed };
  }
  const problem = providerKeyProblem(trimmed);
  return problem === undefined ? { secret: trimmed } : { problem };
}
