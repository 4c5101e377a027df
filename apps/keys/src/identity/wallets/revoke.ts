import type { Database } from "@gw/db";
import { GatewayError } from "@gw/errors";
import type { KeysTables } from "../../db/schema.js";
import { publishKeyChange } from "../keys/changes.js";
import type { ChangeFeed } from "../operator.js";
import { bumpWalletTokenVersion, findWalletAccountById } from "../repositories/wallets.js";

/**
 * Revokes every wallet JWT issued so far to the account's wallet by raising its implicit key's token
 * version; the key-change event makes every edge drop its cached principal, and the next request
 * with an older token is refused (`jwt_revoked`). The wallet can sign in again for a new token.
 */
export async function revokeWalletTokens(
  database: Database<KeysTables>,
  input: { accountId: string },
  feed?: ChangeFeed,
): Promise<{ account_id: string; key_id: string; token_version: number }> {
  const wallet = await findWalletAccountById(database.db, input.accountId);
  if (!wallet) throw new GatewayError("not_found", `account ${input.accountId} is not a wallet account`);
  const version = await bumpWalletTokenVersion(database.db, wallet.key_hash);
  if (version === undefined) throw new GatewayError("not_found", `the wallet's key was not found`);
  if (feed) {
    publishKeyChange(feed.publisher, feed.keyChangesTopic, {
      keyHash: wallet.key_hash,
      accountId: wallet.account_id,
      change: "updated",
    });
  }
  return { account_id: wallet.account_id, key_id: wallet.key_hash, token_version: version };
}
