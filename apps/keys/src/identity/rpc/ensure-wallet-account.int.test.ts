import { randomBytes } from "node:crypto";
import { WalletTokens } from "@gw/auth";
import { type EnsureWalletAccountResponse, KeyServiceClient } from "@gw/proto/keys/v1/keys";
import { insecureCredentials, unaryCall } from "@gw/rpc";
import { describeWith } from "@gw/testing";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type KeysHarness, startKeysHarness } from "../../test/harness.js";

describeWith(["postgres"], "KeyService.EnsureWalletAccount (a paying wallet's account)", () => {
  const tokens = new WalletTokens({ secret: randomBytes(32) });
  let harness: KeysHarness;
  let client: InstanceType<typeof KeyServiceClient>;
  let ensure: (walletAccountId: string) => Promise<EnsureWalletAccountResponse>;

  beforeAll(async () => {
    harness = await startKeysHarness({ wallet: { tokens, publicBaseUrl: "https://gw.example" } });
    client = new KeyServiceClient(harness.running.grpcAddress, insecureCredentials());
    const call = unaryCall(client, client.ensureWalletAccount);
    ensure = (walletAccountId) => call({ walletAccountId, clientAddress: "192.0.2.1" });
  });

  afterAll(async () => {
    client?.close();
    await harness?.close();
  });

  it("creates the account once, however many payments race, and signs a JWT naming it", async () => {
    const address = privateKeyToAccount(`0x${randomBytes(32).toString("hex")}`).address;
    const id = `eip155:84532:${address.toLowerCase()}`;
    const answers = await Promise.all([ensure(id), ensure(id), ensure(id)]);
    expect(answers.filter((answer) => answer.created)).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.tenantId)).size).toBe(1);
    const first = answers[0] as EnsureWalletAccountResponse;
    // The checksummed spelling, as sign-in names it: one wallet, one account, whichever way it is written.
    expect(first.walletAccountId).toBe(`eip155:84532:${address}`);
    const claims = await tokens.verify(first.jwt);
    expect(claims).toMatchObject({
      subject: `eip155:84532:${address}`,
      tenantId: first.tenantId,
      keyId: first.keyId,
    });
    expect(first.expiresAt?.getTime()).toBe(claims.expiresAt * 1000);
  });

  it("refuses a wallet whose implicit key the operator disabled (the edge then settles nothing)", async () => {
    const address = privateKeyToAccount(`0x${randomBytes(32).toString("hex")}`).address;
    const first = await ensure(`eip155:84532:${address}`);
    await harness.database.db
      .updateTable("api_keys")
      .set({ disabled: true })
      .where("hash", "=", first.keyId)
      .execute();
    await expect(ensure(`eip155:84532:${address}`)).rejects.toThrow(/disabled/);
  });

  it("refuses what is not a CAIP-10 EVM or Solana account id", async () => {
    for (const bad of ["", "eip155:1:0x123", "bitcoin:1:abc", "solana:x:not-base58-0OIl"])
      await expect(ensure(bad)).rejects.toThrow(/CAIP-10/);
  });
});
