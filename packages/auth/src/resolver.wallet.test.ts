import { randomBytes } from "node:crypto";
import { encodeEvent, InProcessEventBus, KEY_CHANGED_V1 } from "@gw/events";
import {
  type AuthenticateResponse,
  AuthFailureReason,
  KeyType,
  LimitReset,
  type Principal,
} from "@gw/proto/keys/v1/keys";
import { describe, expect, it } from "vitest";
import { PrincipalResolver } from "./resolver.js";
import { WalletTokens } from "./wallet-token.js";

const KEY_ID = "b".repeat(64);
const TENANT = "acct_wallet";
const tokens = new WalletTokens({ secret: randomBytes(32) });

function walletPrincipal(overrides: Partial<Principal> = {}): Principal {
  return {
    accountId: TENANT,
    keyHash: KEY_ID,
    keyType: KeyType.KEY_TYPE_REGULAR,
    name: "wallet eip155:8453:0xabc",
    label: "wallet",
    disabled: false,
    limitReset: LimitReset.LIMIT_RESET_UNSPECIFIED,
    includeByokInLimit: false,
    createdAt: new Date(0),
    walletTokenVersion: 0,
    ...overrides,
  };
}

/** A KeyService whose answer can change, counting calls: the resolver's caching is under test. */
function keyService(initial: AuthenticateResponse) {
  let answer = initial;
  let calls = 0;
  return {
    authenticate: async () => {
      calls++;
      return answer;
    },
    set: (next: AuthenticateResponse) => {
      answer = next;
    },
    calls: () => calls,
  };
}

const ok = (principal: Principal): AuthenticateResponse => ({
  result: { $case: "principal", value: principal },
  cacheTtlMs: 5_000,
});

const issue = (overrides: { tokenVersion?: number; tenantId?: string } = {}) =>
  tokens
    .issue({
      subject: "eip155:8453:0xabc",
      tenantId: overrides.tenantId ?? TENANT,
      keyId: KEY_ID,
      tokenVersion: overrides.tokenVersion ?? 0,
    })
    .then((issued) => issued.jwt);

describe("PrincipalResolver with wallet JWTs", () => {
  it("resolves a wallet JWT to its implicit key, with no remote call once warm", async () => {
    const service = keyService(ok(walletPrincipal()));
    const resolver = new PrincipalResolver(service.authenticate, { walletTokens: tokens });
    const jwt = await issue();
    await expect(resolver.resolveSecret(jwt)).resolves.toMatchObject({ accountId: TENANT, keyHash: KEY_ID });
    for (let i = 0; i < 50; i++) await resolver.resolveSecret(jwt);
    expect(service.calls()).toBe(1);
  });

  it("refuses a JWT when no wallet secret is configured, without a remote call", async () => {
    const service = keyService(ok(walletPrincipal()));
    const resolver = new PrincipalResolver(service.authenticate);
    await expect(resolver.resolveSecret(await issue())).rejects.toMatchObject({
      status: 401,
      code: "wallet_auth_not_configured",
    });
    expect(service.calls()).toBe(0);
  });

  it("refuses a JWT signed with another secret, without a remote call", async () => {
    const service = keyService(ok(walletPrincipal()));
    const resolver = new PrincipalResolver(service.authenticate, { walletTokens: tokens });
    const other = await new WalletTokens({ secret: randomBytes(32) }).issue({
      subject: "eip155:8453:0xabc",
      tenantId: TENANT,
      keyId: KEY_ID,
      tokenVersion: 0,
    });
    await expect(resolver.resolveSecret(other.jwt)).rejects.toMatchObject({
      status: 401,
      metadata: { reason: "jwt_signature_invalid" },
    });
    expect(service.calls()).toBe(0);
  });

  it("revokes tokens below the key's token version once the key-change event arrives", async () => {
    const service = keyService(ok(walletPrincipal()));
    const resolver = new PrincipalResolver(service.authenticate, { walletTokens: tokens });
    const bus = new InProcessEventBus();
    const subscription = await resolver.subscribeToKeyChanges(bus, "keys.changes", "edge-a");
    const old = await issue();
    await resolver.resolveSecret(old);

    service.set(ok(walletPrincipal({ walletTokenVersion: 1 })));
    const event = encodeEvent(
      KEY_CHANGED_V1,
      { keyHash: KEY_ID, accountId: TENANT, change: "updated" },
      { accountId: TENANT },
    );
    bus.publish("keys.changes", event.key, event.value, event.headers);
    await expect.poll(() => resolver.size()).toBe(0);

    await expect(resolver.resolveSecret(old)).rejects.toMatchObject({
      status: 401,
      metadata: { reason: "jwt_revoked" },
    });
    await expect(resolver.resolveSecret(await issue({ tokenVersion: 1 }))).resolves.toMatchObject({
      keyHash: KEY_ID,
    });
    await subscription.stop();
    await bus.close();
  });

  it("names the key's state when the implicit key is disabled", async () => {
    const service = keyService({
      result: { $case: "failure", value: AuthFailureReason.AUTH_FAILURE_REASON_KEY_DISABLED },
      cacheTtlMs: 0,
    });
    const resolver = new PrincipalResolver(service.authenticate, { walletTokens: tokens });
    await expect(resolver.resolveSecret(await issue())).rejects.toMatchObject({
      status: 401,
      metadata: { reason: "key_disabled" },
    });
  });

  it("refuses a token whose key belongs to another tenant, or is not a wallet's key", async () => {
    const resolver = new PrincipalResolver(keyService(ok(walletPrincipal())).authenticate, {
      walletTokens: tokens,
    });
    await expect(resolver.resolveSecret(await issue({ tenantId: "acct_other" }))).rejects.toMatchObject({
      metadata: { reason: "jwt_claims_invalid" },
    });
    const { walletTokenVersion: _omitted, ...plain } = walletPrincipal();
    const apiKeyResolver = new PrincipalResolver(keyService(ok(plain)).authenticate, {
      walletTokens: tokens,
    });
    await expect(apiKeyResolver.resolveSecret(await issue())).rejects.toMatchObject({
      metadata: { reason: "jwt_claims_invalid" },
    });
  });
});
