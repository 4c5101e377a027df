import { authorizationTypes } from "@x402/evm";
import { type Address, getAddress, type Hex, isAddress, isHex, recoverTypedDataAddress } from "viem";
import type { PaymentRequirements } from "../types.js";
import { isObject, type Json, parseUint, quote, refuse } from "./common.js";
import type { LocalCheckOptions, LocalCheckResult } from "./result.js";

/** x402's EVM facilitator wants at least this many seconds left on an authorization (it settles in them). */
const VALID_BEFORE_MARGIN_S = 6n;

/** An EOA's signature: r, s, v. Longer ones are smart-wallet signatures (EIP-1271 / EIP-6492). */
const EOA_SIGNATURE_HEX_LENGTH = 2 + 65 * 2;

interface Authorization {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

/**
 * The EVM "exact" scheme with an EIP-3009 `transferWithAuthorization`: x402's verification rules that need
 * no chain (the order of @x402/evm's verifier), with the signature recovered offline. A Permit2 payload is
 * refused; smart-wallet signatures cannot be checked without a chain and are refused too.
 */
export async function checkExactEvm(
  accepted: Json,
  schemePayload: Json,
  requirements: PaymentRequirements,
  options: LocalCheckOptions,
): Promise<LocalCheckResult> {
  if ("permit2Authorization" in schemePayload || requirements.extra?.assetTransferMethod === "permit2") {
    return refuse(
      "unsupported_payload_type",
      "Permit2 payments are not accepted; sign an EIP-3009 authorization",
    );
  }
  const chainId = chainIdOf(requirements.network);
  if (chainId === undefined)
    return refuse("invalid_network", `network ${quote(requirements.network)} is not eip155:<chain id>`);
  const domainName = requirements.extra?.name;
  const domainVersion = requirements.extra?.version;
  if (typeof domainName !== "string" || typeof domainVersion !== "string") {
    return refuse(
      "invalid_exact_evm_missing_eip712_domain",
      "the requirements lack the token's EIP-712 name and version",
    );
  }
  if (!sameAddress(accepted.asset, requirements.asset)) {
    return refuse(
      "invalid_exact_evm_asset_mismatch",
      `asset ${quote(accepted.asset)} is not the required ${requirements.asset}`,
    );
  }
  const authorization = parseAuthorization(schemePayload.authorization);
  const signature = schemePayload.signature;
  if (!authorization || typeof signature !== "string" || !isHex(signature, { strict: true })) {
    return refuse("invalid_payload", "the payload needs an EIP-3009 authorization and a hex signature");
  }
  const mismatch = checkTerms(authorization, accepted, requirements, options.now ?? Date.now());
  if (mismatch) return mismatch;
  const domain = {
    name: domainName,
    version: domainVersion,
    chainId,
    verifyingContract: getAddress(requirements.asset),
  };
  if (!(await signedBy(authorization, signature, domain))) {
    return refuse(
      "invalid_exact_evm_signature",
      `the signature is not ${authorization.from}'s over this authorization`,
    );
  }
  const authorizationId = `${requirements.network}:${authorization.from}:${authorization.nonce.toLowerCase()}`;
  if (await options.seen?.has(authorizationId)) {
    return refuse(
      "invalid_exact_evm_nonce_already_used",
      `authorization nonce ${authorization.nonce} was already used`,
    );
  }
  return {
    ok: true,
    payer: authorization.from,
    network: requirements.network,
    amount: authorization.value.toString(),
    authorizationId,
    validBefore: Number(authorization.validBefore),
  };
}

/** Recipient, amount and time window: what the authorization commits to against what we asked for. */
function checkTerms(
  authorization: Authorization,
  accepted: Json,
  requirements: PaymentRequirements,
  nowMs: number,
): LocalCheckResult | undefined {
  if (
    !sameAddress(authorization.to, requirements.payTo) ||
    !sameAddress(accepted.payTo, requirements.payTo)
  ) {
    return refuse(
      "invalid_exact_evm_recipient_mismatch",
      `the authorization pays ${authorization.to}, not ${requirements.payTo}`,
    );
  }
  const required = parseUint(requirements.amount);
  if (required === undefined || authorization.value !== required || parseUint(accepted.amount) !== required) {
    return refuse(
      "invalid_exact_evm_payload_authorization_value_mismatch",
      `the authorization is for ${authorization.value} atomic units, the required amount is exactly ${quote(requirements.amount)}`,
    );
  }
  const now = BigInt(Math.floor(nowMs / 1000));
  if (authorization.validBefore < now + VALID_BEFORE_MARGIN_S) {
    return refuse(
      "invalid_exact_evm_payload_authorization_valid_before",
      "the authorization has expired (validBefore)",
    );
  }
  if (authorization.validAfter > now) {
    return refuse(
      "invalid_exact_evm_payload_authorization_valid_after",
      "the authorization is not valid yet (validAfter)",
    );
  }
  return undefined;
}

function parseAuthorization(value: unknown): Authorization | undefined {
  if (!isObject(value)) return undefined;
  const { from, to, nonce } = value;
  const amounts = [parseUint(value.value), parseUint(value.validAfter), parseUint(value.validBefore)];
  const [amount, validAfter, validBefore] = amounts;
  if (typeof from !== "string" || !isAddress(from, { strict: false })) return undefined;
  if (typeof to !== "string" || !isAddress(to, { strict: false })) return undefined;
  if (typeof nonce !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(nonce)) return undefined;
  if (amount === undefined || validAfter === undefined || validBefore === undefined) return undefined;
  return {
    from: getAddress(from),
    to: getAddress(to),
    value: amount,
    validAfter,
    validBefore,
    nonce: nonce as Hex,
  };
}

/** Half the secp256k1 group order: a signature with a larger s is a malleated copy, refused by USDC. */
const MAX_S = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

async function signedBy(
  authorization: Authorization,
  signature: Hex,
  domain: { name: string; version: string; chainId: number; verifyingContract: Address },
): Promise<boolean> {
  if (signature.length !== EOA_SIGNATURE_HEX_LENGTH) return false;
  // USDC (and our test token) refuse high-s signatures on chain; refusing them here saves a settle.
  if (BigInt(`0x${signature.slice(66, 130)}`) > MAX_S) return false;
  try {
    const signer = await recoverTypedDataAddress({
      domain,
      types: authorizationTypes,
      primaryType: "TransferWithAuthorization",
      message: authorization,
      signature,
    });
    return signer === authorization.from;
  } catch {
    // viem throws on a signature that is not a point on the curve or has an invalid recovery byte.
    return false;
  }
}

function chainIdOf(network: string): number | undefined {
  const match = /^eip155:([1-9][0-9]{0,15})$/.exec(network);
  const id = match?.[1] === undefined ? Number.NaN : Number(match[1]);
  return Number.isSafeInteger(id) ? id : undefined;
}

function sameAddress(a: unknown, b: unknown): boolean {
  if (typeof a !== "string" || typeof b !== "string") return false;
  if (!isAddress(a, { strict: false }) || !isAddress(b, { strict: false })) return false;
  return getAddress(a) === getAddress(b);
}
