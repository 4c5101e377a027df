import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { associatedData, CredentialCipher, CredentialKeyError, keyIdOf, maskProviderKey } from "./cipher.js";

const MASTER = randomBytes(32);

describe("CredentialCipher", () => {
  it("round-trips a secret under hex and base64 master keys", () => {
    for (const encoded of [MASTER.toString("hex"), MASTER.toString("base64")]) {
      const cipher = CredentialCipher.fromMasterKey(encoded);
      const sealed = cipher.seal("sk-secret-value", associatedData("acct_1", "openai"));
      expect(sealed.ciphertext.toString("utf8")).not.toContain("sk-secret");
      expect(cipher.open(sealed, associatedData("acct_1", "openai"))).toBe("sk-secret-value");
    }
  });

  it("refuses a ciphertext moved to another account or provider", () => {
    const cipher = CredentialCipher.fromMasterKey(MASTER.toString("hex"));
    const sealed = cipher.seal("sk-secret-value", associatedData("acct_1", "openai"));
    expect(() => cipher.open(sealed, associatedData("acct_2", "openai"))).toThrow();
    expect(() => cipher.open(sealed, associatedData("acct_1", "groq"))).toThrow();
  });

  it("uses a fresh IV per secret", () => {
    const cipher = CredentialCipher.fromMasterKey(MASTER.toString("hex"));
    const a = cipher.seal("same", "x");
    const b = cipher.seal("same", "x");
    expect(a.iv.equals(b.iv)).toBe(false);
  });

  it("records the sealing key's id, opens with a previous key, and names an unknown key instead of guessing", () => {
    const previous = randomBytes(32);
    const old = CredentialCipher.fromMasterKey(previous.toString("hex"));
    const sealedOld = old.seal("sk-old", "ad");
    expect(sealedOld.keyId).toBe(keyIdOf(previous));
    expect(sealedOld.keyId).not.toContain(previous.toString("hex").slice(0, 8));
    const rotating = CredentialCipher.fromMasterKeys(MASTER.toString("hex"), previous.toString("base64"));
    expect(rotating.keyIds).toEqual([keyIdOf(MASTER), keyIdOf(previous)]);
    expect(rotating.open(sealedOld, "ad")).toBe("sk-old");
    expect(rotating.open({ ...sealedOld, keyId: null }, "ad")).toBe("sk-old");
    expect(rotating.seal("sk-new", "ad").keyId).toBe(keyIdOf(MASTER));
    const current = CredentialCipher.fromMasterKey(MASTER.toString("hex"));
    expect(() => current.open(sealedOld, "ad")).toThrow(CredentialKeyError);
    expect(() => current.open(sealedOld, "ad")).toThrow(/BYOK_MASTER_KEY_PREVIOUS/);
    expect(() => current.open({ ...sealedOld, keyId: null }, "ad")).toThrow(CredentialKeyError);
    // A row claiming the current key but sealed with another fails authentication, never yields text.
    expect(() => current.open({ ...sealedOld, keyId: keyIdOf(MASTER) }, "ad")).toThrow(
      /failed authentication/,
    );
  });

  it("refuses a previous key equal to the current one", () => {
    expect(() => CredentialCipher.fromMasterKeys(MASTER.toString("hex"), MASTER.toString("base64"))).toThrow(
      /must differ/,
    );
  });

  it("rejects a master key of the wrong size", () => {
    expect(() => CredentialCipher.fromMasterKey("abcd")).toThrow(/32 bytes/);
    expect(() => CredentialCipher.fromMasterKey(randomBytes(16).toString("base64"))).toThrow(/32 bytes/);
  });
});

describe("maskProviderKey", () => {
  it("shows only a prefix and the last four characters", () => {
    expect(maskProviderKey("sk-proj-abcdefghijklmnop1234")).toBe("sk-...1234");
    expect(maskProviderKey("short-key")).toBe("...ey");
  });
});
