import type { SeenAuthorizations } from "@gw/x402";

/**
 * Authorizations this edge saw settle, so presenting one again is refused before any facilitator call
 * (`replayed`). It is a cheap first line only: the token's on-chain nonce refuses a replay at the
 * facilitator on every replica, and billing's ledger credits each (network, payer, nonce) once.
 * Bounded; the oldest are forgotten first.
 */
export class RecentAuthorizations implements SeenAuthorizations {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity = 100_000) {}

  has(authorizationId: string): boolean {
    return this.ids.has(authorizationId);
  }

  record(authorizationId: string): void {
    this.ids.delete(authorizationId);
    this.ids.add(authorizationId);
    if (this.ids.size <= this.capacity) return;
    const oldest = this.ids.values().next();
    if (!oldest.done) this.ids.delete(oldest.value);
  }
}
