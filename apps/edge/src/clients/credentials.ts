import { type GetProviderCredentialsResponse, KeyServiceClient } from "@gw/proto/keys/v1/keys";
import { connectClient, type ServiceTokenIssuer } from "@gw/rpc";

/** An account's decrypted provider keys (BYOK), from KeyService.GetProviderCredentials. */
export type CredentialSource = (accountId: string) => Promise<GetProviderCredentialsResponse>;

export function connectCredentialSource(
  address: string,
  options: { timeoutMs: number; issuer?: ServiceTokenIssuer | undefined },
): { source: CredentialSource; close(): void } {
  const client = connectClient(KeyServiceClient, address, { audience: "keys", ...options });
  return { source: (accountId) => client.getProviderCredentials({ accountId }), close: client.close };
}
