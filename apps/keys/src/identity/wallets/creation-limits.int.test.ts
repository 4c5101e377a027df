import { randomBytes } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { WalletTokens } from "@gw/auth";
import { CLIENT_ADDRESS_HTTP_HEADER } from "@gw/http";
import { KeyServiceClient } from "@gw/proto/keys/v1/keys";
import { insecureCredentials, retryAfterOf, unaryCall } from "@gw/rpc";
import { describeWith } from "@gw/testing";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type KeysHarness, startKeysHarness } from "../../test/harness.js";
import { DEFAULT_SWEEP } from "../accounts/sweep.js";
import { formatSiwxMessage } from "./siwx-message.js";

// The account-creation limits on the keys app itself, over real PostgreSQL: sign-in counts per the
// client address the edge forwards, a first payment (EnsureWalletAccount) counts like a first sign-in,
// an existing wallet is never refused, and a refusal writes nothing.

const PUBLIC_BASE_URL = "https://gateway.example";
const LIMITS = { perAddress: 3, global: 5, windowSeconds: 3_600 };

describeWith(["postgres"], "account-creation limits (ACCOUNT_CREATION_*)", () => {
  const tokens = new WalletTokens({ secret: randomBytes(32) });
  let harness: KeysHarness;
  let client: InstanceType<typeof KeyServiceClient>;

  beforeAll(async () => {
    harness = await startKeysHarness({
      wallet: { tokens, publicBaseUrl: PUBLIC_BASE_URL },
      accounts: { creation: LIMITS, sweep: { ...DEFAULT_SWEEP, afterSeconds: 0 } },
    });
    client = new KeyServiceClient(harness.running.grpcAddress, insecureCredentials());
  });

  afterAll(async () => {
    client?.close();
    await harness?.close();
  });

  async function signIn(wallet: PrivateKeyAccount, clientAddress: string) {
    const base = new URL(PUBLIC_BASE_URL);
    const message = formatSiwxMessage({
      namespace: "eip155",
      domain: base.host,
      address: wallet.address,
      statement: "Sign in to the gateway",
      uri: `${base.origin}/v1/x402/auth`,
      version: "1",
      chainId: "8453",
      nonce: randomBytes(8).toString("hex"),
      issuedAt: new Date().toISOString(),
    });
    const signature = await wallet.signMessage({ message });
    const response = await fetch(`${harness.running.httpUrl}/v1/x402/auth`, {
      method: "POST",
      headers: { "content-type": "application/json", [CLIENT_ADDRESS_HTTP_HEADER]: clientAddress },
      body: JSON.stringify({ message, signature }),
    });
    return {
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      body: (await response.json()) as { created?: boolean; error?: { code?: number; metadata?: object } },
    };
  }

  const accounts = async () =>
    Number(
      (
        await harness.database.db
          .selectFrom("accounts")
          .select((e) => e.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("refuses the new accounts past the per-address limit with 429 and Retry-After, and writes nothing", async () => {
    const wallets = Array.from({ length: LIMITS.perAddress + 1 }, () =>
      privateKeyToAccount(generatePrivateKey()),
    );
    const answers = [];
    for (const wallet of wallets) answers.push(await signIn(wallet, "198.51.100.1"));
    expect(answers.slice(0, LIMITS.perAddress).map((answer) => answer.status)).toEqual([200, 200, 200]);
    const refused = answers[LIMITS.perAddress];
    expect(refused?.status).toBe(429);
    expect(refused?.body.error).toMatchObject({
      code: 429,
      metadata: { reason: "account_creation_limited", limit_source: "account_creation", scope: "address" },
    });
    const retryAfter = Number(refused?.retryAfter);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(LIMITS.windowSeconds);
    const before = await accounts();
    expect((await signIn(privateKeyToAccount(generatePrivateKey()), "198.51.100.1")).status).toBe(429);
    expect(await accounts()).toBe(before);
    // A wallet that already has its account signs in again whatever the limit says.
    const again = await signIn(wallets[0] as PrivateKeyAccount, "198.51.100.1");
    expect(again.status).toBe(200);
    expect(again.body.created).toBeUndefined();
  });

  it("counts an IPv6 client per /64: another address of the same /64 is the same client", async () => {
    const first = await signIn(privateKeyToAccount(generatePrivateKey()), "2001:db8:1:2::1");
    expect(first.status).toBe(200);
    // The global window now holds 4 of 5; the /64 holds 1 of 3.
    const sameNetwork = await signIn(privateKeyToAccount(generatePrivateKey()), "2001:db8:1:2:ffff::9");
    expect(sameNetwork.status).toBe(200);
    const rows = await harness.database.db
      .selectFrom("account_creation_windows")
      .select(["subject", "created"])
      .where("scope", "=", "address")
      .where("subject", "like", "2001:db8:%")
      .execute();
    expect(rows).toEqual([{ subject: "2001:db8:1:2::/64", created: 2 }]);
  });

  it("refuses past the global limit whatever the address, and a first payment counts like a first sign-in", async () => {
    // Global: 5 of 5 taken (3 + 2 above); a new address and a new payer are both refused.
    const other = await signIn(privateKeyToAccount(generatePrivateKey()), "203.0.113.50");
    expect(other.status).toBe(429);
    expect(other.body.error).toMatchObject({ metadata: { scope: "global" } });
    const ensure = unaryCall(client, client.ensureWalletAccount);
    const payer = privateKeyToAccount(generatePrivateKey()).address;
    const refusal = await ensure({
      walletAccountId: `eip155:8453:${payer}`,
      clientAddress: "203.0.113.51",
    }).then(
      () => undefined,
      (error: grpc.ServiceError) => error,
    );
    expect(refusal?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(retryAfterOf(refusal ?? {})).toBeGreaterThanOrEqual(1);
    // An existing wallet paying again is not a creation.
    const existing = (
      await harness.database.db.selectFrom("wallet_accounts").select("address").executeTakeFirstOrThrow()
    ).address;
    const paid = await ensure({ walletAccountId: `eip155:8453:${existing}`, clientAddress: "203.0.113.51" });
    expect(paid.created).toBe(false);
  });
});
