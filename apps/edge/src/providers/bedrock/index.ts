import { UpstreamHttp } from "../http.js";
import type { ProviderFactory } from "../types.js";
import { regionalBaseUrl } from "./api.js";
import { credentialsFor } from "./credentials.js";
import { bedrockChat, type RegionalHttp } from "./exchange.js";

/**
 * Amazon Bedrock behind the canonical chat form: Claude through InvokeModel with Anthropic's body, other
 * models through Converse, both streamed over Bedrock's binary event stream, every request SigV4-signed.
 * The credential is the account's own (BYOK: the secret's JSON, see @gw/http parseAwsCredential) or the
 * gateway's (AWS variables or profile). One connection pool per region the endpoints name. There is no
 * native proxy: a caller cannot sign for the gateway's account.
 */
export const bedrockProvider: ProviderFactory = (settings, timeouts) => {
  const aws = credentialsFor(settings.apiKey, settings.aws);
  const pools = new Map<string, RegionalHttp>();
  const pool = (region: string): RegionalHttp => {
    const existing = pools.get(region);
    if (existing) return existing;
    const baseUrl = new URL(regionalBaseUrl(settings.baseUrl, region));
    const created = { http: new UpstreamHttp(baseUrl.href, timeouts), baseUrl };
    pools.set(region, created);
    return created;
  };
  return {
    id: settings.id,
    apiFormat: "bedrock",
    isDemo: settings.isDemo,
    chat: { complete: (call) => bedrockChat(call, aws, pool) },
    unsupported: undefined,
    close: async () => {
      await Promise.all([...pools.values()].map((entry) => entry.http.close()));
    },
  };
};
