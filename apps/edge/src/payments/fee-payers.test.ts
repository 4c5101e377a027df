import { memoryLogger } from "@gw/logger";
import type { Facilitator } from "@gw/x402";
import { describe, expect, it } from "vitest";
import { FeePayers } from "./fee-payers.js";

// The facilitator's /supported answer, as x402's facilitators send it (kinds with extra.feePayer on
// Solana's exact scheme); scripted per call.
const DEVNET = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
const MAINNET = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
type Supported = Awaited<ReturnType<Facilitator["getSupported"]>>;
const supported = (kinds: Supported["kinds"]): Supported => ({ kinds, extensions: [], signers: {} });
const refused = () => Promise.reject(new Error("not in this test"));

function facilitator(answers: Array<Supported | Error>) {
  let asked = 0;
  const client: Facilitator = {
    verify: refused,
    settle: refused,
    getSupported: async () => {
      const answer = answers[Math.min(asked, answers.length - 1)];
      asked++;
      if (!answer || answer instanceof Error) throw answer ?? new Error("no answer");
      return answer;
    },
  };
  return { client, asked: () => asked };
}

describe("FeePayers (Solana's fee payer per network, from the facilitator's /supported)", () => {
  const kinds = supported([
    { x402Version: 2, scheme: "exact", network: DEVNET, extra: { feePayer: "Payer1" } },
    { x402Version: 2, scheme: "upto", network: MAINNET, extra: { feePayer: "NotExact" } },
    { x402Version: 2, scheme: "exact", network: MAINNET, extra: { feePayer: 7 } },
    { x402Version: 2, scheme: "exact", network: "solana:other", extra: { feePayer: "NotOffered" } },
    { x402Version: 2, scheme: "exact", network: "eip155:84532" },
  ] as Supported["kinds"]);

  it("takes each offered Solana network's exact fee payer, and nothing else", async () => {
    const { client } = facilitator([kinds]);
    const payers = new FeePayers(client, [DEVNET, MAINNET, "eip155:84532"], memoryLogger().logger);
    expect([...(await payers.get())]).toEqual([[DEVNET, "Payer1"]]);
  });

  it("never asks when no Solana network is offered", async () => {
    const { client, asked } = facilitator([kinds]);
    expect((await new FeePayers(client, ["eip155:84532"], memoryLogger().logger).get()).size).toBe(0);
    expect(asked()).toBe(0);
  });

  it("asks again after five minutes, and keeps the last answer while the facilitator fails", async () => {
    let now = 0;
    const { logger, lines } = memoryLogger("warn");
    const { client, asked } = facilitator([kinds, new Error("down")]);
    const payers = new FeePayers(client, [DEVNET], logger, () => now);
    await payers.get();
    now = 5 * 60_000 - 1;
    expect((await payers.get()).get(DEVNET)).toBe("Payer1");
    expect(asked()).toBe(1);
    now = 5 * 60_000;
    expect((await payers.get()).get(DEVNET)).toBe("Payer1");
    expect(asked()).toBe(2);
    expect(lines().map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([
      "x402 facilitator /supported failed; Solana is not offered for now",
    ]);
    const never = facilitator([new Error("down")]);
    expect((await new FeePayers(never.client, [DEVNET], logger).get()).size).toBe(0);
  });
});
