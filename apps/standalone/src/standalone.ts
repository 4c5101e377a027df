import { PrincipalResolver } from "@gw/auth";
import { startBilling } from "@gw/billing";
import type { Env, TopicConfig } from "@gw/config";
import { freePort } from "@gw/db";
import { connectEdgeDeps, loadEdgeConfig, startEdge } from "@gw/edge";
import type { EventBus } from "@gw/events";
import { startFakeOpenAi } from "@gw/fake-providers";
import { connectCatalogEndpoints, startGenerations } from "@gw/generations";
import {
  accountLifecycleFrom,
  bundledCatalog,
  cloudDeclarations,
  connectBillingUsage,
  connectEndpointHealth,
  startKeys,
  withCloudDeclarations,
} from "@gw/keys";
import type { Logger } from "@gw/logger";
import { observeHttp, portOf, serveMetrics } from "@gw/metrics";
import { publicKeyList, type ServiceKeyPair, type ServiceName, serviceAuthSet } from "@gw/rpc";
import type { StandaloneConfig } from "./config.js";
import { connectAppDatabases, resolvePostgres } from "./databases.js";
import { type DevCredentials, devCredentialsFile, ensureDevCredentials } from "./dev-credentials.js";
import { admissionStore, eventBus } from "./infrastructure.js";
import { ensureServiceKeys } from "./service-keys.js";
import { standaloneWallet } from "./wallet.js";

const LOOPBACK = "127.0.0.1";

export interface RunningStandalone {
  url: string;
  /** GET /metrics of all four apps (METRICS_PORT), or undefined when not served. */
  metricsUrl: string | undefined;
  /** The web console (the edge's /console/), or undefined when CONSOLE_ENABLED=false. */
  consoleUrl: string | undefined;
  credentials: DevCredentials;
  credentialsCreated: boolean;
  /** Where the dev credentials are kept (the banner points there after the first start). */
  credentialsFile: string;
  /** What each dependency runs on, for the start-up banner. */
  infrastructure: { postgres: string; bus: string; hotStore: string; demoProvider: string };
  stop(): Promise<void>;
}

type Stopper = () => Promise<unknown> | unknown;

/**
 * The embedded default: all four apps in one process, still talking gRPC over loopback so the code
 * path is the one production runs, on an embedded PostgreSQL (or DATABASE_URL), a PostgreSQL outbox
 * as the event bus (or Kafka) and the in-process admission store (or Redis), plus the built-in demo provider.
 */
export async function startStandalone(
  config: StandaloneConfig,
  env: Env,
  logger: Logger,
  choosePorts: () => Promise<GrpcPorts> = grpcPorts,
): Promise<RunningStandalone> {
  for (let attempt = 1; ; attempt++) {
    const ports = await choosePorts();
    try {
      return await startStandaloneOn(ports, config, env, logger);
    } catch (error) {
      // The inner apps' gRPC ports are chosen free, then bound once the apps before them have started
      // (seconds, with migrations): another process can take one in between (CI hit it). Everything
      // started was stopped; start again on new ports. The public PORT is not retried: it is the caller's.
      if (attempt >= INTERNAL_PORT_ATTEMPTS || !internalPortTaken(error, ports)) throw error;
      logger.warn({ attempt, ports }, "an internal gRPC port was taken before it was bound; starting again");
    }
  }
}

const INTERNAL_PORT_ATTEMPTS = 3;

/** Whether the start failed because another process bound one of the internal gRPC ports first. */
export function internalPortTaken(error: unknown, ports: GrpcPorts): boolean {
  const text = error instanceof Error ? `${error.message} ${String(error.stack)}` : String(error);
  if (!text.includes("EADDRINUSE")) return false;
  return Object.values(ports).some((port) => text.includes(`${LOOPBACK}:${port}`));
}

async function startStandaloneOn(
  ports: GrpcPorts,
  config: StandaloneConfig,
  env: Env,
  logger: Logger,
): Promise<RunningStandalone> {
  const stoppers: Stopper[] = [];
  const stopAll = async () => {
    for (const stop of stoppers.reverse()) await stop();
  };
  try {
    const postgres = await resolvePostgres(config.DATABASE_URL, config.dataDir);
    stoppers.push(() => postgres.stop());
    const databases = await connectAppDatabases(postgres.url);
    stoppers.push(() => databases.close());
    const bus = await eventBus(
      config.KAFKA_BROKERS,
      config.dataDir,
      logger,
      postgres.url,
      config.OUTBOX_STALE_GROUP_AFTER_S * 1_000,
    );
    stoppers.push(() => bus.close());
    const store = await admissionStore(config.REDIS_URL);
    stoppers.push(() => store.close());
    const demo = await startFakeOpenAi({ demo: true, host: LOOPBACK, port: 0 });
    stoppers.push(() => demo.close());

    const addresses = {
      keys: `${LOOPBACK}:${ports.keys}`,
      billing: `${LOOPBACK}:${ports.billing}`,
      generations: `${LOOPBACK}:${ports.generations}`,
    };
    const shared = { bus: bus.value, topics: config.topics };
    const wallet = standaloneWallet(env, { dataDir: config.dataDir, host: config.HOST, port: config.PORT });
    const serviceKeys = ensureServiceKeys(config.dataDir);
    const auth = serviceAuthSet(serviceKeys);

    const billingUsage = connectBillingUsage(addresses.billing, { issuer: auth.keys.issuer });
    stoppers.push(() => billingUsage.close());
    // The endpoints view polls generations' measured health (generations starts below: until then the
    // figures are null, as before any traffic).
    const endpointHealth = connectEndpointHealth(addresses.generations, { issuer: auth.keys.issuer });
    stoppers.push(() => endpointHealth.close());
    const keys = await startKeys(
      {
        ...shared,
        database: databases.keys,
        logger: logger.child({ app: "keys" }),
        billing: billingUsage.usage,
        health: endpointHealth.source,
        byokMasterKey: config.BYOK_MASTER_KEY,
        catalog: withCloudDeclarations(bundledCatalog(), cloudDeclarations(config)),
        byokMasterKeyPrevious: config.BYOK_MASTER_KEY_PREVIOUS,
        wallet: { tokens: wallet.tokens, publicBaseUrl: wallet.publicBaseUrl },
        accounts: accountLifecycleFrom(config),
        serviceAuth: auth.keys,
        bodyTimeoutMs: config.BODY_TIMEOUT_MS,
      },
      { host: LOOPBACK, httpPort: 0, grpcPort: ports.keys },
    );
    stoppers.push(() => keys.stop());

    // Billing and generations each ask keys as themselves.
    const billingPrincipals = PrincipalResolver.connect(addresses.keys, {
      walletTokens: wallet.tokens,
      issuer: auth.billing.issuer,
    });
    stoppers.push(() => billingPrincipals.close());
    const generationsPrincipals = PrincipalResolver.connect(addresses.keys, {
      walletTokens: wallet.tokens,
      issuer: auth.generations.issuer,
    });
    stoppers.push(() => generationsPrincipals.close());
    // Generations' health aggregator keeps attempts at the catalogue's endpoints only.
    const catalogEndpoints = connectCatalogEndpoints(addresses.keys, {
      issuer: auth.generations.issuer,
      logger,
    });
    stoppers.push(() => catalogEndpoints.close());
    const billing = await startBilling(
      {
        ...shared,
        database: databases.billing,
        logger: logger.child({ app: "billing" }),
        store: store.value,
        resolver: billingPrincipals.resolver,
        ...(config.PAID_REQUESTS_PER_MINUTE === undefined
          ? {}
          : { admission: { paidRequestsPerMinute: config.PAID_REQUESTS_PER_MINUTE } }),
        serviceAuth: auth.billing,
        bodyTimeoutMs: config.BODY_TIMEOUT_MS,
        reconcile: { rpcUrls: config.X402_RPC_URLS, intervalMs: config.X402_RECONCILE_INTERVAL_MS },
      },
      { host: LOOPBACK, httpPort: 0, grpcPort: ports.billing },
    );
    stoppers.push(() => billing.stop());
    const generations = await startGenerations(
      {
        ...shared,
        database: databases.generations,
        logger: logger.child({ app: "generations" }),
        resolver: generationsPrincipals.resolver,
        knownEndpoints: catalogEndpoints.endpoints,
        serviceAuth: auth.generations,
        bodyTimeoutMs: config.BODY_TIMEOUT_MS,
      },
      { host: LOOPBACK, httpPort: 0, grpcPort: ports.generations },
    );
    stoppers.push(() => generations.stop());

    const edge = await startEdgeApp(config, env, {
      bus: bus.value,
      topics: config.topics,
      logger,
      keysGrpc: addresses.keys,
      billingGrpc: addresses.billing,
      generationsGrpc: generations.grpcAddress,
      http: { keys: keys.httpUrl, billing: billing.httpUrl, generations: generations.httpUrl },
      demoBaseUrl: demo.baseUrl,
      walletEnv: wallet.edgeEnv,
      serviceKeys,
    });
    stoppers.push(() => edge.stop());
    // One /readyz for the whole process: the edge's checks plus each inner app's report.
    const inner: Array<[string, { readiness: Readiness }]> = [
      ["keys", keys],
      ["billing", billing],
      ["generations", generations],
    ];
    for (const [name, app] of inner) edge.readiness.add(name, () => innerReadiness(app.readiness));

    // One process, one registry: this one listener exposes the series of all four apps, whose HTTP
    // series carry their app's name (the edge observes its own, in startEdge). The control-plane apps
    // serve only management routes.
    const metrics =
      config.METRICS_PORT === undefined
        ? undefined
        : await serveMetrics(config.HOST, config.METRICS_PORT, logger);
    if (metrics) {
      stoppers.push(() => metrics.close());
      for (const [app, running] of [
        ["keys", keys],
        ["billing", billing],
        ["generations", generations],
      ] as const)
        stoppers.push(observeHttp(portOf(running.httpUrl), { app, surface: () => "management" }));
    }

    const { credentials, created } = await ensureDevCredentials(
      config.dataDir,
      databases.keys,
      databases.billing,
    );
    return {
      url: edge.url,
      metricsUrl: metrics?.url,
      consoleUrl: edge.consoleUrl,
      credentials,
      credentialsCreated: created,
      credentialsFile: devCredentialsFile(config.dataDir),
      infrastructure: {
        postgres:
          postgres.origin === "configured" ? "DATABASE_URL" : `embedded PostgreSQL (${config.dataDir})`,
        bus: bus.kind,
        hotStore: store.kind,
        demoProvider: demo.baseUrl,
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** An app's readiness as its start function returns it (@gw/http's Readiness). */
type Readiness = Awaited<ReturnType<typeof startKeys>>["readiness"];

async function innerReadiness(readiness: Readiness): Promise<{ ok: boolean } & Record<string, unknown>> {
  const report = await readiness.report();
  return { ok: report.status === "ready", ...report };
}

/** The loopback gRPC ports of the inner keys, billing and generations apps. */
export interface GrpcPorts {
  keys: number;
  billing: number;
  generations: number;
}

async function grpcPorts(): Promise<GrpcPorts> {
  const [keys, billing, generations] = [await freePort(), await freePort(), await freePort()];
  if (keys === undefined || billing === undefined || generations === undefined)
    throw new Error("no free ports");
  return { keys, billing, generations };
}

interface EdgeWiring {
  bus: EventBus;
  topics: TopicConfig;
  logger: Logger;
  keysGrpc: string;
  billingGrpc: string;
  generationsGrpc: string;
  http: { keys: string; billing: string; generations: string };
  demoBaseUrl: string;
  walletEnv: Env;
  serviceKeys: Record<ServiceName, ServiceKeyPair>;
}

/** The edge reads its provider credentials from the same environment as in production. */
async function startEdgeApp(
  config: StandaloneConfig,
  env: Env,
  wiring: EdgeWiring,
): Promise<{ url: string; consoleUrl: string | undefined; readiness: Readiness; stop(): Promise<void> }> {
  const edgeConfig = loadEdgeConfig({
    ...env,
    ...wiring.walletEnv,
    HOST: config.HOST,
    HTTP_PORT: String(config.PORT),
    KEYS_GRPC_ADDRESS: wiring.keysGrpc,
    BILLING_GRPC_ADDRESS: wiring.billingGrpc,
    GENERATIONS_GRPC_ADDRESS: wiring.generationsGrpc,
    KEYS_HTTP_URL: wiring.http.keys,
    BILLING_HTTP_URL: wiring.http.billing,
    GENERATIONS_HTTP_URL: wiring.http.generations,
    DEMO_PROVIDER_URL: wiring.demoBaseUrl,
    SERVICE_AUTH_PRIVATE_KEY: wiring.serviceKeys.edge.privateKey,
    SERVICE_AUTH_PUBLIC_KEYS: publicKeyList(wiring.serviceKeys),
  });
  const connected = connectEdgeDeps(edgeConfig, {
    bus: wiring.bus,
    logger: wiring.logger.child({ app: "edge" }),
  });
  try {
    const edge = await startEdge(connected.deps, { host: edgeConfig.host, httpPort: edgeConfig.httpPort });
    return {
      url: edge.httpUrl,
      consoleUrl: edge.consoleUrl,
      readiness: edge.readiness,
      stop: async () => {
        await edge.stop();
        await connected.close();
      },
    };
  } catch (error) {
    await connected.close();
    throw error;
  }
}
