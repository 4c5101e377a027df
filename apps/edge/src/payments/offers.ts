import { randomBytes } from "node:crypto";
import type { Network, PaymentRequired, PaymentRequirements, PaymentRequirementsV1 } from "@gw/x402";
import type { PaymentNetwork, X402Settings } from "./settings.js";

/** x402 v1 network names (x402's own map) for the networks a v1 client knows; others keep their CAIP-2 id. */
const V1_NAMES: Record<string, string> = {
  "eip155:8453": "base",
  "eip155:84532": "base-sepolia",
  "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp": "solana",
  "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1": "solana-devnet",
};

export function v1NetworkName(network: string): string {
  return V1_NAMES[network] ?? network;
}

/** A v1 network name (or a CAIP-2 id) → CAIP-2. */
export function caip2Of(v1Network: string): string {
  for (const [caip2, name] of Object.entries(V1_NAMES)) if (name === v1Network) return caip2;
  return v1Network;
}

export interface OfferContext {
  /** x402's `resource.url`: PUBLIC_BASE_URL plus the refused request's path, no query. */
  resourceUrl: string;
  /** PUBLIC_BASE_URL: the sign-in domain and URI are on it. */
  origin: URL;
  /** Solana fee payers by network (from the facilitator's /supported); a Solana network without one is not offered. */
  feePayers: ReadonlyMap<string, string>;
  now: number;
  /** Why payment is required (x402's `error`). */
  error: string;
}

/** The two renderings of one offer: v2's `PAYMENT-REQUIRED` header and v1's body fields. */
export interface PaymentOffer {
  v2: PaymentRequired;
  v1: { x402Version: 1; accepts: PaymentRequirementsV1[] };
}

const DESCRIPTION = "Top up this wallet's gateway credits; the request is then served from the balance.";
/** How long the sign-in challenge stays valid (x402's SIWx default). */
const SIWX_TTL_MS = 5 * 60_000;

/**
 * Every top-up the gateway takes: each amount (cheapest first, so a client's default choice is the
 * smallest, which x402's default spend cap of 1 USD allows) on each configured network.
 */
export function paymentRequirements(
  settings: X402Settings,
  feePayers: ReadonlyMap<string, string>,
): PaymentRequirements[] {
  const offered = settings.networks.flatMap((network) => requirementBase(network, feePayers));
  return settings.amountsAtomic.flatMap((amount) =>
    offered.map((base) => ({ ...base, amount, maxTimeoutSeconds: settings.maxTimeoutSeconds })),
  );
}

function requirementBase(
  network: PaymentNetwork,
  feePayers: ReadonlyMap<string, string>,
): Omit<PaymentRequirements, "amount" | "maxTimeoutSeconds">[] {
  const isSolana = network.network.startsWith("solana:");
  const feePayer = feePayers.get(network.network);
  if (isSolana && !feePayer) return [];
  return [
    {
      scheme: "exact",
      network: network.network as Network,
      asset: network.asset,
      payTo: network.payTo,
      extra: isSolana ? { feePayer } : { ...network.extra },
    },
  ];
}

/** The 402's offer: top-ups plus a `sign-in-with-x` challenge with a fresh server nonce. */
export function buildOffer(settings: X402Settings, context: OfferContext): PaymentOffer {
  const accepts = paymentRequirements(settings, context.feePayers);
  const resource = { url: context.resourceUrl, description: DESCRIPTION, mimeType: "application/json" };
  return {
    v2: {
      x402Version: 2,
      error: context.error,
      resource,
      accepts,
      extensions: { "sign-in-with-x": signInChallenge(settings, context) },
    },
    v1: {
      x402Version: 1,
      accepts: accepts.map((requirement) => ({
        scheme: requirement.scheme,
        network: v1NetworkName(requirement.network) as Network,
        maxAmountRequired: requirement.amount,
        resource: context.resourceUrl,
        description: DESCRIPTION,
        mimeType: "application/json",
        outputSchema: {},
        payTo: requirement.payTo,
        maxTimeoutSeconds: requirement.maxTimeoutSeconds,
        asset: requirement.asset,
        extra: requirement.extra,
      })),
    },
  };
}

/**
 * x402's SIWx extension: what a wallet signs to get a JWT from `POST /v1/x402/auth` without paying.
 * The nonce is ours and fresh; the keys app makes every nonce single-use per address.
 */
function signInChallenge(settings: X402Settings, context: OfferContext) {
  const issuedAt = new Date(context.now);
  const uri = `${context.origin.origin}/v1/x402/auth`;
  return {
    info: {
      domain: context.origin.host,
      uri,
      version: "1",
      nonce: randomBytes(16).toString("hex"),
      issuedAt: issuedAt.toISOString(),
      expirationTime: new Date(context.now + SIWX_TTL_MS).toISOString(),
      statement: "Sign in to the model gateway with your wallet",
      resources: [uri],
    },
    supportedChains: settings.networks
      .map((network) => network.network)
      .map((chainId) => ({ chainId, type: chainId.startsWith("solana:") ? "ed25519" : "eip191" })),
    schema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      required: ["domain", "address", "uri", "version", "chainId", "type", "nonce", "issuedAt", "signature"],
      properties: Object.fromEntries(
        ["domain", "address", "uri", "version", "chainId", "type", "nonce", "issuedAt", "signature"].map(
          (field) => [field, { type: "string" }],
        ),
      ),
    },
  };
}
