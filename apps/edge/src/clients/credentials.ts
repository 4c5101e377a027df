import { type GetProviderCredentialsResponse, KeyServiceClient } from "@gw/proto/keys/v1/keys";
import { clientOptions, insecureCredentials, type ServiceTokenIssuer, unaryCall } from "@gw/rpc";

/** An account's decrypted provider keys (BYOK), from KeyService.GetProviderCredentials. */
export type CredentialSource = (accountId: string) => Promise<GetProviderCredentialsResponse>;

export function connectCredentialSource(
  address: string,
  options: { timeoutMs: number; issuer?: ServiceTokenIssuer | undefined },
): { source: CredentialSource; close(): void } {
  const client = new KeyServiceClient(address, insecureCredentials(), clientOptions(options.issuer, "keys"));
  const call = unaryCall(client, client.getProviderCredentials, { timeoutMs: options.timeoutMs });
  return { source: (accountId) => call({ accountId }), close: () => client.close() };
}
