import { UpstreamHttp } from "../http.js";
import type { UpstreamTimeouts } from "../settings.js";
import { vertexOrigin } from "./api.js";

/**
 * One connection pool per Vertex host: each location has its own (`us-east5-aiplatform.googleapis.com`),
 * so endpoints in several regions each keep their connections warm. With VERTEX_BASE_URL set (a proxy, or
 * the fake in tests) every location goes to that one host.
 */
export class VertexPools {
  private readonly pools = new Map<string, UpstreamHttp>();

  constructor(
    private readonly fixedBase: string | undefined,
    private readonly timeouts: UpstreamTimeouts,
  ) {}

  for(location: string): UpstreamHttp {
    const base = this.fixedBase ?? vertexOrigin(location);
    let pool = this.pools.get(base);
    if (!pool) {
      pool = new UpstreamHttp(base, this.timeouts);
      this.pools.set(base, pool);
    }
    return pool;
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
  }
}
