import type { Logger } from "@gw/logger";
import type { KeyServiceServer } from "@gw/proto/keys/v1/keys";
import { unaryHandler } from "@gw/rpc";
import type { Kysely } from "kysely";
import type { KeysTables } from "../../db/schema.js";
import { type ByokStore, decryptedCredentials } from "../byok/service.js";
import { authenticateKey } from "../keys/authenticate.js";
import { ensurePayerAccount } from "../wallets/ensure-for-payment.js";
import type { WalletAuthSettings } from "../wallets/sign-in.js";

/** How long an edge may reuse an account's credentials; byok_changed events invalidate sooner. */
export const CREDENTIALS_CACHE_TTL_MS = 5_000;

export function keyService(
  db: Kysely<KeysTables>,
  byok: ByokStore,
  logger: Logger,
  wallet?: WalletAuthSettings,
): KeyServiceServer {
  return {
    authenticate: unaryHandler((request) => authenticateKey(db, request.keyHash), logger),
    getProviderCredentials: unaryHandler(async (request) => {
      const credentials = await decryptedCredentials(byok, request.accountId);
      return { credentials, cacheTtlMs: CREDENTIALS_CACHE_TTL_MS };
    }, logger),
    ensureWalletAccount: unaryHandler(async (request) => {
      const clientAddress = request.clientAddress === "" ? "unknown" : request.clientAddress.slice(0, 64);
      const answer = await ensurePayerAccount(db, wallet, request.walletAccountId, clientAddress);
      if (answer.created)
        logger.info(
          { accountId: answer.tenantId, wallet: answer.walletAccountId },
          "wallet account created by a payment",
        );
      return answer;
    }, logger),
  };
}
