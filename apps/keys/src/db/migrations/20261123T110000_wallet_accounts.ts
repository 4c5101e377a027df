import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// Wallet sign-in (SIWx): one account per wallet address and namespace, reached through an implicit
// key; single-use sign-in nonces shared by every replica of the keys app.
export const walletAccounts: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // Set on a wallet's implicit key only: wallet JWTs carrying a lower version are revoked.
    await db.schema.alterTable("api_keys").addColumn("wallet_token_version", "integer").execute();

    await db.schema
      .createTable("wallet_accounts")
      .addColumn("namespace", "text", (column) =>
        column.notNull().check(sql`namespace in ('eip155', 'solana')`),
      )
      // EIP-55 checksummed for EVM, base58 public key for Solana: the canonical spelling of each.
      .addColumn("address", "text", (column) => column.notNull())
      .addColumn("account_id", "text", (column) => column.notNull().unique().references("accounts.id"))
      .addColumn("key_hash", "text", (column) => column.notNull().references("api_keys.hash"))
      .addColumn("created_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint("wallet_accounts_pkey", ["namespace", "address"])
      .execute();

    await db.schema
      .createTable("siwx_nonces")
      .addColumn("namespace", "text", (column) => column.notNull())
      .addColumn("address", "text", (column) => column.notNull())
      .addColumn("nonce", "text", (column) => column.notNull())
      // After this the message's Issued At is outside the window, so the nonce can be forgotten.
      .addColumn("expires_at", "timestamptz", (column) => column.notNull())
      .addPrimaryKeyConstraint("siwx_nonces_pkey", ["namespace", "address", "nonce"])
      .execute();
    await db.schema.createIndex("siwx_nonces_expires_idx").on("siwx_nonces").column("expires_at").execute();
  },
};
