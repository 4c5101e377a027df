import { CircuitBreakers, type CircuitOptions, DEFAULT_CIRCUIT } from "./circuit.js";
import { endpointKey, type MeasuredFigures } from "./measured-health.js";

/** What routing reads of endpoint health (order.ts); the edge's EndpointHealth implements it. */
export interface HealthView {
  /**
   * True when the endpoint goes last: its circuit on this edge is open (or half-open with the probe
   * taken), or its measured status is degraded or down. Asking may take a half-open circuit's probe:
   * call it once per endpoint and plan.
   */
  degraded(modelId: string, providerId: string): boolean;
  /** The measured figures, or undefined for an endpoint with no data yet. */
  figures(modelId: string, providerId: string): MeasuredFigures | undefined;
}

export const NO_HEALTH: HealthView = { degraded: () => false, figures: () => undefined };

/**
 * The edge's view of endpoint health: its own circuits (fast, local) and the control plane's measured
 * figures (every edge's traffic, seconds behind). The failover loop reports each attempt here.
 */
export class EndpointHealth implements HealthView {
  private readonly circuits: CircuitBreakers;

  constructor(
    private readonly measured: { get(modelId: string, providerId: string): MeasuredFigures | undefined },
    now: () => number = Date.now,
    circuit: CircuitOptions = DEFAULT_CIRCUIT,
  ) {
    this.circuits = new CircuitBreakers(circuit, now);
  }

  recordSuccess(modelId: string, providerId: string): void {
    this.circuits.recordSuccess(endpointKey(modelId, providerId));
  }

  /** A failure that was the provider's fault (planning/fault.ts). */
  recordFailure(modelId: string, providerId: string): void {
    this.circuits.recordFailure(endpointKey(modelId, providerId));
  }

  degraded(modelId: string, providerId: string): boolean {
    // Measured degraded or down (every edge's traffic) goes last here too, whatever this edge saw; it
    // recovers as the failures age out of the aggregator's status window. Otherwise this edge's circuit.
    const status = this.measured.get(modelId, providerId)?.status;
    if (status === "degraded" || status === "down") return true;
    return !this.circuits.admit(endpointKey(modelId, providerId));
  }

  figures(modelId: string, providerId: string): MeasuredFigures | undefined {
    return this.measured.get(modelId, providerId);
  }
}
