import type { PaymentRequirements } from "@gw/x402";
import { describe, expect, it } from "vitest";
import { paymentToCheck } from "./normalize.js";

// Which offer a payment is paired with when several share its network: the best match (amount, then
// asset, then payee), so the local check names the one field that differs. normalize.test.ts covers
// v1/v2 and the networks.
const NETWORK = "eip155:84532";
const [USDC, OTHER_ASSET] = [
  "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  "0x00000000000000000000000000000000000000aa",
];
const [PAYEE, OTHER_PAYEE] = [
  "0x2096000000000000000000000000000000000001",
  "0x2096000000000000000000000000000000000002",
];
const offer = (id: string, amount: string, asset: string, payTo: string): PaymentRequirements => ({
  scheme: "exact",
  network: NETWORK,
  asset,
  amount,
  payTo,
  maxTimeoutSeconds: 300 + Number(id),
  extra: { name: "USDC", version: "2" },
});
const RESOURCE = "https://gw.example/v1/chat/completions";

/** The offer (by its maxTimeoutSeconds tag) a v2 payment naming `accepted` is paired with. */
function pairedWith(offers: PaymentRequirements[], accepted: unknown): number | undefined {
  const paired = paymentToCheck(
    { header: "v2", payload: { x402Version: 2, accepted, payload: {} } } as never,
    offers,
    RESOURCE,
  );
  return paired && paired.requirement.maxTimeoutSeconds - 300;
}

describe("pairing a payment with the best of several offers on its network", () => {
  const wanted = { network: NETWORK, amount: "5000000", asset: USDC, payTo: PAYEE };

  it("the amount counts most, then the asset, then the payee", () => {
    const offers = [
      offer("1", "1000000", USDC, PAYEE),
      offer("2", "5000000", OTHER_ASSET, OTHER_PAYEE),
      offer("3", "5000000", OTHER_ASSET, PAYEE),
      offer("4", "5000000", USDC, OTHER_PAYEE),
    ];
    // Asset and payee (3 points) lose to the amount alone (4).
    expect(pairedWith(offers.slice(0, 2), wanted)).toBe(2);
    // Amount and asset (6) beat amount and payee (5).
    expect(pairedWith(offers, wanted)).toBe(4);
    expect(pairedWith(offers.slice(0, 3), wanted)).toBe(3);
    expect(pairedWith([...offers, offer("5", "5000000", USDC, PAYEE)], wanted)).toBe(5);
  });

  it("an asset or payee matching alone still decides between offers of another amount", () => {
    const offers = [
      offer("1", "1000000", OTHER_ASSET, OTHER_PAYEE),
      offer("2", "2000000", OTHER_ASSET, PAYEE),
    ];
    expect(pairedWith(offers, wanted)).toBe(2);
    const byAsset = [offer("1", "1000000", OTHER_ASSET, PAYEE), offer("2", "2000000", USDC, OTHER_PAYEE)];
    expect(pairedWith(byAsset, wanted)).toBe(2);
  });

  it("a payment naming no readable offer is checked against the first offer", () => {
    const offers = [offer("1", "1000000", USDC, PAYEE), offer("2", "5000000", USDC, PAYEE)];
    expect(pairedWith(offers, [wanted])).toBe(1);
    expect(pairedWith(offers, null)).toBe(1);
    expect(pairedWith(offers, "eip155:84532")).toBe(1);
    expect(pairedWith(offers, { ...wanted, amount: 5000000 })).toBe(1);
  });
});
