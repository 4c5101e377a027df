import type { Logger } from "@gw/logger";
import { KeyServiceClient } from "@gw/proto/keys/v1/keys";
import { CHANNEL_OPTIONS, insecureCredentials, unaryCall } from "@gw/rpc";
import type { EdgeConfig } from "../config.js";
import { ByokProviders } from "./providers.js";

/** KeyService.GetProviderCredentials behind the edge's BYOK cache. */
export function connectByokProviders(
  config: EdgeConfig,
  logger: Logger,
): { providers: ByokProviders; close(): Promise<void> } {
  const client = new KeyServiceClient(config.keysGrpcAddress, insecureCredentials(), CHANNEL_OPTIONS);
  const call = unaryCall(client, client.getProviderCredentials, { timeoutMs: config.rpcTimeoutMs });
  const providers = new ByokProviders((accountId) => call({ accountId }), {
    settings: config.byokProviders,
    timeouts: config.timeouts,
    logger,
    maxTtlMs: config.authCacheMaxTtlMs,
  });
  return {
    providers,
    close: async () => {
      await providers.close();
      client.close();
    },
  };
}
