import type { Facilitator } from "@gw/x402";
import { describe, expect, it } from "vitest";
import { buildOffer, caip2Of, type PaymentOffer, paymentRequirements, v1NetworkName } from "./offers.js";
import { paymentNetworks, usdToAtomicUsdc, type X402Settings } from "./settings.js";

const PAY_TO = "0x2096000000000000000000000000000000000001";
const SOL_PAY_TO = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const DEVNET = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
const notCalled = () => Promise.reject(new Error("offers never call the facilitator"));
const unusedFacilitator: Facilitator = { verify: notCalled, settle: notCalled, getSupported: notCalled };

function settings(networks: string[], amounts = ["1", "5", "10"]): X402Settings {
  return {
    facilitator: unusedFacilitator,
    networks: paymentNetworks({
      facilitatorUrl: "http://127.0.0.1:9",
      networks,
      payToEvm: PAY_TO,
      payToSolana: SOL_PAY_TO,
      topupAmountsUsd: amounts,
      assets: {},
      publicBaseUrl: "https://gw.example:8443",
    }),
    amountsAtomic: amounts.map(usdToAtomicUsdc),
    maxTimeoutSeconds: 300,
    publicBaseUrl: "https://gw.example:8443",
  };
}

const context = {
  resourceUrl: "https://gw.example/v1/chat/completions",
  origin: new URL("https://gw.example:8443"),
  feePayers: new Map([[DEVNET, "FeePayer1111111111111111111111111111111111"]]),
  now: Date.parse("2026-11-23T12:00:00Z"),
  error: "insufficient_credits",
};

interface SignInExtension {
  info: Record<string, unknown>;
  supportedChains: unknown[];
}

function signInExtension(offer: PaymentOffer): SignInExtension {
  const extension = offer.v2.extensions?.["sign-in-with-x"];
  if (!extension) throw new Error("the offer has no sign-in-with-x extension");
  return extension as SignInExtension;
}

describe("x402 offers", () => {
  it("converts USD to atomic USDC exactly", () => {
    expect(usdToAtomicUsdc("1")).toBe("1000000");
    expect(usdToAtomicUsdc("0.25")).toBe("250000");
    expect(usdToAtomicUsdc("10.000001")).toBe("10000001");
    expect(() => usdToAtomicUsdc("0.0000001")).toThrow(RangeError);
  });

  it("offers every amount on every network, cheapest first, with Base Sepolia USDC's EIP-712 domain", () => {
    const accepts = paymentRequirements(settings(["eip155:84532", "eip155:8453"]), new Map());
    expect(accepts.map((offer) => [offer.network, offer.amount])).toEqual([
      ["eip155:84532", "1000000"],
      ["eip155:8453", "1000000"],
      ["eip155:84532", "5000000"],
      ["eip155:8453", "5000000"],
      ["eip155:84532", "10000000"],
      ["eip155:8453", "10000000"],
    ]);
    expect(accepts[0]).toEqual({
      scheme: "exact",
      network: "eip155:84532",
      asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      amount: "1000000",
      payTo: PAY_TO,
      maxTimeoutSeconds: 300,
      extra: { name: "USDC", version: "2" },
    });
    // Base mainnet's USDC signs under another name.
    expect(accepts[1]?.extra).toEqual({ name: "USD Coin", version: "2" });
  });

  it("offers Solana with the facilitator's fee payer, and leaves it out while none is known", () => {
    const withSolana = settings(["eip155:84532", DEVNET], ["0.5"]);
    expect(paymentRequirements(withSolana, context.feePayers)[1]).toMatchObject({
      network: DEVNET,
      asset: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
      payTo: SOL_PAY_TO,
      amount: "500000",
      extra: { feePayer: "FeePayer1111111111111111111111111111111111" },
    });
    expect(paymentRequirements(withSolana, new Map()).map((offer) => offer.network)).toEqual([
      "eip155:84532",
    ]);
  });

  it("refuses a network with no known USDC unless X402_ASSETS names its token", () => {
    expect(() => settings(["eip155:31337"])).toThrow(/X402_ASSETS/);
  });

  it("renders v2 (PAYMENT-REQUIRED) and v1 (body) forms of the same offer, with a sign-in challenge", () => {
    const offer = buildOffer(settings(["eip155:84532", DEVNET], ["1"]), context);
    expect(offer.v2).toMatchObject({
      x402Version: 2,
      error: "insufficient_credits",
      resource: { url: context.resourceUrl, mimeType: "application/json" },
    });
    expect(offer.v2.accepts).toHaveLength(2);
    expect(offer.v1.x402Version).toBe(1);
    expect(offer.v1.accepts[0]).toMatchObject({
      scheme: "exact",
      network: "base-sepolia",
      maxAmountRequired: "1000000",
      resource: context.resourceUrl,
      payTo: PAY_TO,
      asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      extra: { name: "USDC", version: "2" },
    });
    expect(offer.v1.accepts[1]?.network).toBe("solana-devnet");
    const siwx = signInExtension(offer);
    expect(siwx.info).toMatchObject({
      domain: "gw.example:8443",
      uri: "https://gw.example:8443/v1/x402/auth",
      version: "1",
      issuedAt: "2026-11-23T12:00:00.000Z",
      expirationTime: "2026-11-23T12:05:00.000Z",
    });
    expect(siwx.info.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(siwx.supportedChains).toEqual([
      { chainId: "eip155:84532", type: "eip191" },
      { chainId: DEVNET, type: "ed25519" },
    ]);
    // A fresh nonce per offer.
    expect(signInExtension(buildOffer(settings(["eip155:84532"]), context)).info.nonce).not.toBe(
      siwx.info.nonce,
    );
  });

  it("maps v1 network names to CAIP-2 and back", () => {
    expect(v1NetworkName("eip155:84532")).toBe("base-sepolia");
    expect(caip2Of("base-sepolia")).toBe("eip155:84532");
    expect(caip2Of("solana")).toBe("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp");
    expect(v1NetworkName("eip155:31337")).toBe("eip155:31337");
  });
});
