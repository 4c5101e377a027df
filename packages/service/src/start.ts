import type * as grpc from "@grpc/grpc-js";
import { type Listening, listen, type Readiness } from "@gw/http";
import type { Logger } from "@gw/logger";
import { bindGrpcServer, type ServiceName, shutdownGrpcServer } from "@gw/rpc";
import type { Express } from "express";

/** The control-plane apps (the edge is built its own way). */
export type ControlPlaneName = Exclude<ServiceName, "edge">;

export interface ListenOptions {
  host: string;
  /** 0 picks a free port. */
  httpPort: number;
  grpcPort: number;
  /** How long a stop waits for requests under way before cutting them (SHUTDOWN_DEADLINE_MS). */
  shutdownDeadlineMs?: number | undefined;
}

export interface RunningControlPlane {
  httpUrl: string;
  grpcAddress: string;
  readiness: Readiness;
  /**
   * Readiness goes 503 first; then the app's work and its servers stop in the app's order (requests
   * under way get until the shutdown deadline); the deps (database, bus, ...) stay open: the caller
   * owns them.
   */
  stop(): Promise<void>;
}

export interface Stoppable {
  stop(): Promise<void>;
}

/** When a piece of the app's own work (a consumer, a listener, a job) stops, relative to its servers. */
export interface WorkStops {
  /** Stops before the servers close (e.g. consumers that must commit while the app still answers). */
  beforeServers(work: Stoppable): void;
  /** Stops while the servers close. */
  withServers(work: Stoppable): void;
  /** Stops once the servers have closed (e.g. what the requests under way still use). */
  afterServers(work: Stoppable): void;
}

export interface ControlPlaneParts {
  name: ControlPlaneName;
  logger: Logger;
  readiness: Readiness;
  /** Starts the app's own work before its servers take requests; each piece is registered to stop. */
  work?(stops: WorkStops): Promise<void>;
  http(): Express;
  /** The app's gRPC server, its services added but not bound. */
  grpc(): grpc.Server;
}

/**
 * Starts a control-plane app: its own work, then REST and gRPC. A failure part-way stops what had
 * started before it rethrows.
 */
export async function startControlPlane(
  parts: ControlPlaneParts,
  options: ListenOptions,
): Promise<RunningControlPlane> {
  const stages = { before: [] as Stoppable[], with: [] as Stoppable[], after: [] as Stoppable[] };
  const servers: { http?: Listening; grpc?: grpc.Server } = {};
  const stopAll = async (deadlineMs?: number): Promise<void> => {
    await Promise.all(stages.before.map((work) => work.stop()));
    await Promise.all([
      servers.http?.close(deadlineMs),
      servers.grpc ? shutdownGrpcServer(servers.grpc, deadlineMs) : undefined,
      ...stages.with.map((work) => work.stop()),
    ]);
    await Promise.all(stages.after.map((work) => work.stop()));
  };
  try {
    await parts.work?.({
      beforeServers: (work) => void stages.before.push(work),
      withServers: (work) => void stages.with.push(work),
      afterServers: (work) => void stages.after.push(work),
    });
    servers.http = await listen(parts.http(), options.host, options.httpPort);
    servers.grpc = parts.grpc();
    const grpcPort = await bindGrpcServer(servers.grpc, options.host, options.grpcPort);
    const running: RunningControlPlane = {
      httpUrl: servers.http.url,
      grpcAddress: `${loopbackFor(options.host)}:${grpcPort}`,
      readiness: parts.readiness,
      stop: () => {
        parts.readiness.drain();
        return stopAll(options.shutdownDeadlineMs);
      },
    };
    parts.logger.info(
      { httpUrl: running.httpUrl, grpcAddress: running.grpcAddress },
      `${parts.name} app listening`,
    );
    return running;
  } catch (error) {
    await stopAll();
    throw error;
  }
}

function loopbackFor(host: string): string {
  return host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
}
