import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ensureWalletJwtSecretFile, WalletConfigError, walletTokensFromEnv } from "./wallet-config.js";

const dir = mkdtempSync(join(tmpdir(), "gw-wallet-config-"));
const SECRET = randomBytes(32).toString("hex");
const claims = { subject: "eip155:1:0xabc", tenantId: "acct_1", keyId: "c".repeat(64), tokenVersion: 0 };

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("walletTokensFromEnv", () => {
  it("is off without a secret, except in production where start-up stops", () => {
    expect(walletTokensFromEnv({})).toBeUndefined();
    expect(() => walletTokensFromEnv({ NODE_ENV: "production" })).toThrow(
      /WALLET_JWT_SECRET.*required in production/,
    );
  });

  it("reads the secret from the variable or a file, and the two verify each other's tokens", async () => {
    const file = join(dir, "secret");
    writeFileSync(file, `${SECRET}\n`);
    const fromVariable = walletTokensFromEnv({ WALLET_JWT_SECRET: SECRET, WALLET_JWT_TTL_S: "120" });
    const fromFile = walletTokensFromEnv({ WALLET_JWT_SECRET_FILE: file });
    expect(fromVariable?.ttlSeconds).toBe(120);
    expect(fromFile?.ttlSeconds).toBe(3_600);
    const issued = await fromVariable?.issue(claims);
    await expect(fromFile?.verify(issued?.jwt ?? "")).resolves.toMatchObject({ tenantId: "acct_1" });
  });

  it("names the variable for a short secret, both sources at once, an unreadable file and a bad TTL", () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ WALLET_JWT_SECRET: "too-short" }, /WALLET_JWT_SECRET: must be at least 32 bytes/],
      [{ WALLET_JWT_SECRET: SECRET, WALLET_JWT_SECRET_FILE: "/x" }, /not both/],
      [{ WALLET_JWT_SECRET_FILE: join(dir, "missing") }, /WALLET_JWT_SECRET_FILE: cannot read/],
      [{ WALLET_JWT_SECRET: SECRET, WALLET_JWT_TTL_S: "10" }, /WALLET_JWT_TTL_S/],
      [{ WALLET_JWT_SECRET: SECRET, WALLET_JWT_TTL_S: "1h" }, /WALLET_JWT_TTL_S/],
    ];
    for (const [env, message] of cases) {
      expect(() => walletTokensFromEnv(env)).toThrow(WalletConfigError);
      expect(() => walletTokensFromEnv(env)).toThrow(message);
    }
  });
});

describe("ensureWalletJwtSecretFile", () => {
  it("generates a 0600 secret once and keeps it on later starts", () => {
    const data = join(dir, "data");
    const path = ensureWalletJwtSecretFile(data);
    const first = readFileSync(path, "utf8");
    expect(first.trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(ensureWalletJwtSecretFile(data)).toBe(path);
    expect(readFileSync(path, "utf8")).toBe(first);
    expect(walletTokensFromEnv({ WALLET_JWT_SECRET_FILE: path })).toBeDefined();
  });
});
