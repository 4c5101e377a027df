import { type JWTPayload, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import {
  WALLET_JWT_ALGORITHM,
  WALLET_JWT_AUDIENCE,
  WALLET_JWT_ISSUER,
  WalletTokens,
} from "./wallet-token.js";

// A token signed with the gateway's own secret can still carry claims of the wrong type: each one is
// checked before the token acts as a tenant's key (401 jwt_claims_invalid), not trusted for its signature.

const SECRET = new TextEncoder().encode("k".repeat(32));
const NOW_S = 1_800_000_000;
const tokens = new WalletTokens({ secret: SECRET, now: () => NOW_S * 1_000 });

const VALID: JWTPayload = {
  sub: "eip155:8453:0xabc",
  jti: "jti-1",
  iat: NOW_S,
  exp: NOW_S + 600,
  tenant_id: "acct_1",
  key_id: "k".repeat(64),
  tv: 2,
};

/** Signs `claims` exactly as given (no defaults filled in), with the gateway's issuer and audience. */
function sign(claims: JWTPayload): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: WALLET_JWT_ALGORITHM })
    .setIssuer(WALLET_JWT_ISSUER)
    .setAudience(WALLET_JWT_AUDIENCE)
    .sign(SECRET);
}

describe("wallet JWT claims", () => {
  it("accepts a well-formed token and reads every claim", async () => {
    await expect(tokens.verify(await sign(VALID))).resolves.toMatchObject({
      subject: "eip155:8453:0xabc",
      tenantId: "acct_1",
      keyId: "k".repeat(64),
      tokenVersion: 2,
      jti: "jti-1",
    });
  });

  it("refuses each claim of the wrong type, though the signature is good", async () => {
    const wrong: Array<[string, unknown]> = [
      ["sub", 5],
      ["jti", 5],
      ["iat", "now"],
      ["exp", "later"],
      ["tenant_id", 1],
      ["key_id", null],
      ["tv", "2"],
      ["tv", 1.5],
      ["tv", -1],
    ];
    for (const [claim, value] of wrong) {
      const token = await sign({ ...VALID, [claim]: value });
      await expect(tokens.verify(token), `${claim}=${JSON.stringify(value)}`).rejects.toMatchObject({
        status: 401,
        code: "jwt_claims_invalid",
      });
    }
    for (const claim of ["tenant_id", "key_id", "tv"]) {
      const { [claim]: _dropped, ...rest } = VALID;
      await expect(tokens.verify(await sign(rest)), claim).rejects.toMatchObject({
        status: 401,
        code: "jwt_claims_invalid",
      });
    }
  });

  it("accepts token version 0 (a wallet that was never revoked)", async () => {
    await expect(tokens.verify(await sign({ ...VALID, tv: 0 }))).resolves.toMatchObject({ tokenVersion: 0 });
  });
});
