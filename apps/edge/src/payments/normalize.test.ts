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
  });

  it("checks a payment for an amount never offered against its network's offer, so the check names the amount", () => {
    const accepted = { ...offers[2], amount: "4999999" };
    const paired = paymentToCheck(
      { header: "v2", payload: { x402Version: 2, accepted, payload: inner } },
      offers,
      RESOURCE,
    );
    expect(paired?.requirement.network).toBe("eip155:84532");
    // The payload is passed on as sent: the local check compares it with the offer.
    expect(paired?.payload.accepted).toEqual(accepted);
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
