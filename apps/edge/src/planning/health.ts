const OUTAGE_WINDOW_MS = 30_000;

/**
 * Which providers failed recently, as seen by this edge: a provider with a retryable failure in the
 * last 30 s and no success since goes to the back of the default order (api-decisions: Routing).
 */
export class ProviderHealth {
  private readonly lastFailure = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  recordFailure(providerId: string): void {
    this.lastFailure.set(providerId, this.now());
  }

  recordSuccess(providerId: string): void {
    this.lastFailure.delete(providerId);
  }

  isHealthy(providerId: string): boolean {
    const failedAt = this.lastFailure.get(providerId);
    return failedAt === undefined || this.now() - failedAt >= OUTAGE_WINDOW_MS;
  }
}
