import type * as grpc from "@grpc/grpc-js";
import type { Subscription } from "@gw/events";
import { type Listening, listen, type Readiness } from "@gw/http";
import { bindGrpcServer, shutdownGrpcServer } from "@gw/rpc";
import { createApp } from "./app.js";
import { subscribePayments } from "./consumers/payments.js";
import { subscribeUsage } from "./consumers/usage.js";
import { type BillingDeps, billingContext } from "./deps.js";
import { createGrpcServer } from "./grpc.js";
import { type LedgerListener, startLedgerListener } from "./notifications/ledger-listener.js";
import { billingReadiness } from "./routes/health.js";

export interface ListenOptions {
  host: string;
  /** 0 picks a free port. */
  httpPort: number;
  grpcPort: number;
  /** How long a stop waits for requests under way before cutting them (SHUTDOWN_DEADLINE_MS). */
  shutdownDeadlineMs?: number;
}

export interface RunningBilling {
  httpUrl: string;
  grpcAddress: string;
  readiness: Readiness;
  /**
   * Readiness goes 503 first; consumers finish and commit, servers close (requests under way get until
   * the shutdown deadline); the deps (database, bus, Redis) stay open.
   */
  stop(): Promise<void>;
}

interface Parts {
  http?: Listening;
  grpcServer?: grpc.Server;
  usage?: Subscription;
  payments?: Subscription;
  listener?: LedgerListener;
}

/** Serves REST and gRPC, consumes usage and payment events and listens for credits committed elsewhere. */
export async function startBilling(deps: BillingDeps, options: ListenOptions): Promise<RunningBilling> {
  const context = billingContext(deps);
  const readiness = billingReadiness(deps);
  const parts: Parts = {};
  try {
    parts.listener = await startLedgerListener({
      pool: deps.database.pool,
      store: deps.store,
      logger: deps.logger,
    });
    parts.usage = await subscribeUsage(deps.bus, deps.topics.usage, context);
    parts.payments = await subscribePayments(deps.bus, deps.topics.payments, context);
    parts.http = await listen(createApp(deps, context, readiness), options.host, options.httpPort);
    const grpcServer = createGrpcServer(deps, context);
    parts.grpcServer = grpcServer;
    const grpcPort = await bindGrpcServer(grpcServer, options.host, options.grpcPort);
    const running = {
      httpUrl: parts.http.url,
      grpcAddress: `${loopbackFor(options.host)}:${grpcPort}`,
      readiness,
      stop: () => {
        readiness.drain();
        return stopParts(parts, options.shutdownDeadlineMs);
      },
    };
    deps.logger.info({ httpUrl: running.httpUrl, grpcAddress: running.grpcAddress }, "billing app listening");
    return running;
  } catch (error) {
    await stopParts(parts);
    throw error;
  }
}

async function stopParts(parts: Parts, deadlineMs?: number): Promise<void> {
  // Stop taking work first; the consumer's in-flight event commits before its offset does.
  await Promise.all([
    parts.http?.close(deadlineMs),
    parts.grpcServer ? shutdownGrpcServer(parts.grpcServer, deadlineMs) : undefined,
    parts.usage?.stop(),
    parts.payments?.stop(),
  ]);
  await parts.listener?.stop();
}

function loopbackFor(host: string): string {
  return host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
}
