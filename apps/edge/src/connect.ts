import { PrincipalResolver } from "@gw/auth";
import type { EventPublisher, EventSubscriber } from "@gw/events";
import type { Logger } from "@gw/logger";
import { HttpFacilitator } from "@gw/x402";
import { CatalogHolder } from "./catalog/catalog-holder.js";
import { connectBatchClient } from "./clients/batches.js";
import { connectBillingClient } from "./clients/billing.js";
import { connectCatalogSource } from "./clients/catalog.js";
import { connectCredentialSource } from "./clients/credentials.js";
import { connectHealthSource, unmeasuredHealth } from "./clients/health.js";
import { connectPaymentControlPlane } from "./clients/payments.js";
import type { EdgeConfig } from "./config.js";
import type { EdgeDeps } from "./deps.js";
import { createGuardedFetcher } from "./media/guarded-fetch.js";
import { DEFAULT_MAX_TIMEOUT_SECONDS, paymentNetworks, usdToAtomicUsdc } from "./payments/settings.js";
import { ByokProviders } from "./planning/byok-credentials.js";
import { MeasuredHealthHolder } from "./planning/measured-health.js";
import { ProviderRegistry } from "./providers/registry.js";

export interface ConnectedEdgeDeps {
  deps: EdgeDeps;
  /** Closes what this created (gRPC channels, provider pools); the bus stays with its owner. */
  close(): Promise<void>;
}

/**
 * Builds the edge's deps from its config: gRPC clients to keys (auth, catalogue), billing and
 * generations (batches, endpoint health), the catalogue holder and the provider pools. main.ts and the
 * standalone app share this.
 */
export function connectEdgeDeps(
  config: EdgeConfig,
  shared: { bus: EventPublisher & EventSubscriber; logger: Logger },
): ConnectedEdgeDeps {
  // Every call to the control plane carries the edge's service token (one per audience, reused).
  const issuer = config.serviceAuth?.issuer;
  const rpcOptions = { timeoutMs: config.rpcTimeoutMs, issuer };
  const auth = PrincipalResolver.connect(config.keysGrpcAddress, {
    timeoutMs: config.rpcTimeoutMs,
    maxTtlMs: config.authCacheMaxTtlMs,
    walletTokens: config.walletTokens,
    issuer,
  });
  const credentials = connectCredentialSource(config.keysGrpcAddress, rpcOptions);
  const byok = new ByokProviders(credentials.source, {
    settings: config.byokProviders,
    timeouts: config.timeouts,
    logger: shared.logger,
    maxTtlMs: config.authCacheMaxTtlMs,
  });
  const billing = connectBillingClient(config.billingGrpcAddress, rpcOptions);
  const catalogSource = connectCatalogSource(config.keysGrpcAddress, { issuer });
  // Endpoint health is computed by the generations app, beside the records it is derived from.
  const healthSource = config.generationsGrpcAddress
    ? connectHealthSource(config.generationsGrpcAddress, { issuer })
    : undefined;
  const providers = ProviderRegistry.fromSettings(config.providers, config.timeouts);
  const batches = config.generationsGrpcAddress
    ? connectBatchClient(config.generationsGrpcAddress, rpcOptions)
    : undefined;
  const paymentControlPlane = config.x402
    ? connectPaymentControlPlane(
        { keys: config.keysGrpcAddress, billing: config.billingGrpcAddress },
        // Creating a wallet account and crediting a payment write to Postgres: more than a warm Admit.
        { timeoutMs: Math.max(config.rpcTimeoutMs, 10_000), issuer },
      )
    : undefined;
  const deps: EdgeDeps = {
    principals: auth.resolver,
    byok,
    billing,
    catalog: new CatalogHolder(catalogSource.source, {
      refreshMs: config.catalogRefreshMs,
      logger: shared.logger,
    }),
    measuredHealth: new MeasuredHealthHolder(healthSource?.source ?? unmeasuredHealth, {
      logger: shared.logger,
    }),
    bus: shared.bus,
    topics: config.topics,
    providers,
    controlPlane: { ...config.controlPlane, issuer },
    ...(batches ? { batches } : {}),
    logger: shared.logger,
    ...(config.x402 && paymentControlPlane
      ? {
          payments: {
            controlPlane: paymentControlPlane,
            settings: {
              facilitator: new HttpFacilitator({ url: config.x402.facilitatorUrl }),
              networks: paymentNetworks(config.x402),
              amountsAtomic: config.x402.topupAmountsUsd.map(usdToAtomicUsdc),
              maxTimeoutSeconds: DEFAULT_MAX_TIMEOUT_SECONDS,
              publicBaseUrl: config.x402.publicBaseUrl,
            },
          },
        }
      : {}),
    // Media URLs a target needs as bytes (Gemini, Bedrock, OpenAI's file_data) are fetched through the
    // guarded client only: public addresses, size, time and type caps (apps/edge/README.md "Media URLs").
    mediaFetcher: createGuardedFetcher({ ...config.mediaFetch, logger: shared.logger }),
    instanceId: config.instanceId,
    settings: {
      bodyLimit: config.bodyLimit,
      bodyTimeoutMs: config.bodyTimeoutMs,
      keepAliveMs: config.keepAliveMs,
      proxyHoldPico: config.proxyHoldPico,
      byokFeePercent: config.byokFeePercent,
      leases: config.leases,
      serverTiming: config.serverTiming,
      webSearch: config.webSearch,
      flood: config.flood,
      trustedProxies: config.trustedProxies,
      publicBaseUrl: config.publicBaseUrl,
      console: config.console,
      shutdownDeadlineMs: config.shutdownDeadlineMs,
    },
  };
  return {
    deps,
    close: async () => {
      await providers.close();
      await byok.close();
      credentials.close();
      auth.close();
      billing.close();
      batches?.close();
      paymentControlPlane?.close();
      catalogSource.close();
      healthSource?.close();
    },
  };
}
