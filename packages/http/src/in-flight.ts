import type { RequestHandler } from "express";

/**
 * Counts route handlers still running, so a stopping app can wait for them after its listener closed:
 * a stream cut at the shutdown deadline still measures and publishes its usage after its socket is
 * gone. One counter and one settled-callback per request; nothing is kept per request.
 */
export class InFlight {
  private running = 0;
  private waiters: Array<() => void> = [];

  get count(): number {
    return this.running;
  }

  /** The same handler, counted while the promise it returns (Express 5 awaits it) is pending. */
  track(handler: RequestHandler): RequestHandler {
    return (request, response, next) => {
      const result: unknown = handler(request, response, next);
      if (result instanceof Promise) {
        this.running++;
        // A derived promise: the original still reaches Express's error handling unchanged.
        result.then(this.done, this.done);
      }
      return result;
    };
  }

  /** Resolves once no tracked handler runs, or after `timeoutMs` (false then). */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.running === 0) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private readonly done = (): void => {
    this.running--;
    if (this.running > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  };
}
