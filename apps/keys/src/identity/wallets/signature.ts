import { ed25519 } from "@noble/curves/ed25519";
import { base58, base64 } from "@scure/base";
import { type Hex, verifyMessage } from "viem";
import type { SignInClaim } from "./checks.js";
import { publicKeyOf } from "./checks.js";
import { siwxError } from "./failures.js";

const EOA_SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/**
 * Checks the wallet's signature over the exact signed text: EIP-191 personal-sign recovery for EVM
 * (externally owned accounts: smart wallets would need a chain RPC), ed25519 for Solana.
 */
export async function verifySignature(claim: SignInClaim, message: string, signature: string): Promise<void> {
  const valid =
    claim.namespace === "eip155"
      ? await verifyEvm(claim.address as Hex, message, signature)
      : verifySolana(claim.address, message, signature);
  if (!valid) throw siwxError("invalid_siwx_signature", "the signature is not the address's");
}

async function verifyEvm(address: Hex, message: string, signature: string): Promise<boolean> {
  if (!EOA_SIGNATURE.test(signature))
    throw siwxError("invalid_siwx_malformed_signature", "an EVM signature is 0x and 65 bytes of hex");
  try {
    return await verifyMessage({ address, message, signature: signature as Hex });
  } catch {
    // viem throws on a signature that is not a point on the curve: it is no one's signature.
    return false;
  }
}

function verifySolana(address: string, message: string, signature: string): boolean {
  const candidates = solanaSignatureBytes(signature);
  if (candidates.length === 0)
    throw siwxError("invalid_siwx_malformed_signature", "a Solana signature is 64 bytes in base58 or base64");
  const publicKey = publicKeyOf(address);
  if (!publicKey) return false;
  const bytes = new TextEncoder().encode(message);
  return candidates.some((candidate) => {
    try {
      return ed25519.verify(candidate, bytes, publicKey);
    } catch {
      return false;
    }
  });
}

/**
 * A string can be valid in both alphabets, so every decoding that yields 64 bytes is a candidate
 * (at most two ed25519 checks); none means the signature is in neither encoding.
 */
export function solanaSignatureBytes(signature: string): Uint8Array[] {
  const candidates: Uint8Array[] = [];
  for (const decode of [base58.decode, base64.decode]) {
    try {
      const bytes = decode(signature);
      if (bytes.length === 64) candidates.push(bytes);
    } catch {
      // Not in this alphabet: try the other.
    }
  }
  return candidates;
}
