import type { Express, Request, Response } from "express";

/** One dependency's state: `ok`, plus whatever detail helps an operator (never a secret). */
export type CheckResult = { ok: boolean } & Record<string, unknown>;
/** Answers a dependency's state; a throw (or no answer in time) is `ok: false` with the error's message. */
export type ReadinessCheck = () => CheckResult | Promise<CheckResult>;

export interface ReadinessReport {
  /** `draining`: the process is shutting down and takes no new work, whatever its checks say. */
  status: "ready" | "not_ready" | "draining";
  checks: Record<string, CheckResult>;
}

/** A probe polls every few seconds; a dependency that has not answered in this long counts as down. */
export const DEFAULT_CHECK_TIMEOUT_MS = 2_000;

/**
 * An app's readiness: named checks run on each /readyz (never on the request path), and a draining
 * flag set first on shutdown so the load balancer stops sending work before the listener closes.
 */
export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();
  private draining = false;

  constructor(
    checks: Record<string, ReadinessCheck> = {},
    private readonly timeoutMs = DEFAULT_CHECK_TIMEOUT_MS,
  ) {
    for (const [name, check] of Object.entries(checks)) this.checks.set(name, check);
  }

  /** Adds (or replaces) a named check; the standalone adds its inner apps' readiness this way. */
  add(name: string, check: ReadinessCheck): this {
    this.checks.set(name, check);
    return this;
  }

  /** From now on /readyz answers 503 `draining` (one-way: a stopping process never becomes ready again). */
  drain(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  async report(): Promise<ReadinessReport> {
    const entries = [...this.checks];
    const results = await Promise.all(entries.map(([, check]) => runCheck(check, this.timeoutMs)));
    const checks = Object.fromEntries(entries.map(([name], index) => [name, results[index] as CheckResult]));
    if (this.draining) return { status: "draining", checks };
    return { status: results.every((result) => result.ok) ? "ready" : "not_ready", checks };
  }
}

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: `no answer within ${timeoutMs} ms` }), timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(check), late]);
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /healthz: the process is alive and its event loop turns (liveness: no dependency is asked, so a
 * database outage never restarts every pod). GET /readyz: every check, 200 when all pass, else 503,
 * with the same JSON body either way. Mounted before any authentication or body parsing.
 */
export function mountHealthRoutes(app: Express, readiness: Readiness): void {
  app.get("/healthz", (_request: Request, response: Response) => {
    response.json({ status: "ok" });
  });
  app.get("/readyz", async (_request: Request, response: Response) => {
    const report = await readiness.report();
    response.status(report.status === "ready" ? 200 : 503).json(report);
  });
}
