import type { Logger } from "@gw/logger";
import type { Facilitator } from "@gw/x402";

const REFRESH_MS = 5 * 60_000;

/**
 * Solana's exact scheme needs the facilitator's fee payer in each offer (`extra.feePayer`); the
 * facilitator names it in `/supported`. Asked once and kept for five minutes; not asked at all when
 * no Solana network is offered. While it cannot be had, Solana is left out of the offers.
 */
export class FeePayers {
  private cached: { at: number; payers: Map<string, string> } | undefined;

  constructor(
    private readonly facilitator: Facilitator,
    private readonly networks: readonly string[],
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  async get(): Promise<ReadonlyMap<string, string>> {
    const solana = this.networks.filter((network) => network.startsWith("solana:"));
    if (solana.length === 0) return new Map();
    if (this.cached && this.now() - this.cached.at < REFRESH_MS) return this.cached.payers;
    try {
      const supported = await this.facilitator.getSupported();
      const payers = new Map<string, string>();
      for (const kind of supported.kinds) {
        const feePayer = kind.extra?.feePayer;
        if (kind.scheme === "exact" && solana.includes(kind.network) && typeof feePayer === "string")
          payers.set(kind.network, feePayer);
      }
      this.cached = { at: this.now(), payers };
      return payers;
    } catch (error) {
      this.logger.warn({ err: error }, "x402 facilitator /supported failed; Solana is not offered for now");
      return this.cached?.payers ?? new Map();
    }
  }
}
