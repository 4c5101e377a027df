import type { PaymentRequirements } from "@gw/x402";
import { describe, expect, it } from "vitest";
import { paymentToCheck } from "./normalize.js";

const PAY_TO = "0x2096000000000000000000000000000000000001";
const offer = (network: string, amount: string): PaymentRequirements => ({
  scheme: "exact",
  network: network as PaymentRequirements["network"],
  asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  amount,
  payTo: PAY_TO,
  maxTimeoutSeconds: 300,
  extra: { name: "USDC", version: "2" },
});
const offers = [
  offer("eip155:84532", "1000000"),
  offer("eip155:8453", "1000000"),
  offer("eip155:84532", "5000000"),
  offer("eip155:8453", "5000000"),
];
const RESOURCE = "https://gw.example/v1/chat/completions";
const inner = { signature: "0x00", authorization: { value: "5000000" } };

describe("pairing a payment with the offer it answers", () => {
  it("takes the offer a v2 payment names", () => {
    const paired = paymentToCheck(
      { header: "v2", payload: { x402Version: 2, accepted: offers[3], payload: inner } },
      offers,
      RESOURCE,
    );
    expect(paired?.version).toBe(2);
    expect(paired?.requirement).toBe(offers[3]);
    expect(paired?.requirement.amount).toBe("5000000");
  });

  it("checks a payment for an amount never offered against its network's offer, so the check names the amount", () => {
    const accepted = { ...offers[2], amount: "4999999" };
    const paired = paymentToCheck(
      { header: "v2", payload: { x402Version: 2, accepted, payload: inner } },
      offers,
      RESOURCE,
    );
    expect(paired?.requirement.network).toBe("eip155:84532");
    // The amount checked against is one the gateway offered, never the payer's own claim (4999999):
    // the offer object itself, unchanged, so the local check refuses the claimed amount.
    expect(offers).toContain(paired?.requirement);
    expect(paired?.requirement.amount).not.toBe("4999999");
    expect(offers.map((one) => one.amount)).toContain(paired?.requirement.amount);
    // The payload is passed on as sent: the local check compares it with the offer.
    expect(paired?.payload.accepted).toEqual(accepted);
  });

  it("checks a v1 payment authorizing an amount never offered against an offered amount, not the authorized one", () => {
    const claimed = { signature: "0x00", authorization: { value: "4999999" } };
    const paired = paymentToCheck(
      { header: "v1", payload: { x402Version: 1, scheme: "exact", network: "base", payload: claimed } },
      offers,
      RESOURCE,
    );
    expect(offers).toContain(paired?.requirement);
    expect(paired?.requirement.network).toBe("eip155:8453");
    expect(["1000000", "5000000"]).toContain(paired?.requirement.amount);
    // The restated payment names the offer's amount; the authorization (4999999) is left for the check.
    expect(paired?.payload.accepted.amount).toBe(paired?.requirement.amount);
    expect(paired?.payload.payload).toEqual(claimed);
  });

  it("checks a payment on a network never offered against the first offer (invalid_network follows)", () => {
    const accepted = { ...offers[0], network: "eip155:1" };
    const paired = paymentToCheck(
      { header: "v2", payload: { x402Version: 2, accepted, payload: inner } },
      offers,
      RESOURCE,
    );
    expect(paired?.requirement).toBe(offers[0]);
  });

  it("restates a v1 payment in v2 form: network by its v1 name, the offer by the authorized amount", () => {
    const paired = paymentToCheck(
      { header: "v1", payload: { x402Version: 1, scheme: "exact", network: "base", payload: inner } },
      offers,
      RESOURCE,
    );
    expect(paired?.version).toBe(1);
    expect(paired?.requirement).toBe(offers[3]);
    expect(paired?.requirement.amount).toBe("5000000");
    expect(paired?.payload).toEqual({
      x402Version: 2,
      resource: { url: RESOURCE, description: "", mimeType: "application/json" },
      accepted: offers[3],
      payload: inner,
    });
  });

  it("keeps a v1 payment's own scheme, so an unsupported one is named by the check", () => {
    const paired = paymentToCheck(
      { header: "v1", payload: { x402Version: 1, scheme: "upto", network: "base-sepolia", payload: inner } },
      offers,
      RESOURCE,
    );
    expect(paired?.payload.accepted.scheme).toBe("upto");
  });

  it("has nothing to pair with when nothing is offered", () => {
    expect(paymentToCheck({ header: "v2", payload: { x402Version: 2 } }, [], RESOURCE)).toBeUndefined();
  });
});
