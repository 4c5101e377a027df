import * as grpc from "@grpc/grpc-js";
import { BillingServiceService } from "@gw/proto/billing/v1/billing";
import { CatalogServiceService, type GetSnapshotResponse } from "@gw/proto/catalog/v1/catalog";
import { KeyServiceService, type ProviderCredential } from "@gw/proto/keys/v1/keys";
import { bindGrpcServer, shutdownGrpcServer, unaryHandler } from "@gw/rpc";
import type { RecordingBilling } from "./billing.js";
import { authenticateFrom, type TestKey } from "./principals.js";

export interface ControlPlaneDouble {
  address: string;
  stop(): Promise<void>;
}

/**
 * KeyService, CatalogService and BillingService served over real gRPC on loopback, answered from test
 * data. The edge talks to it exactly as to the keys and billing apps, which it must not import.
 */
export async function startControlPlane(options: {
  keys: TestKey[];
  billing: RecordingBilling;
  snapshot: () => GetSnapshotResponse;
  cacheTtlMs?: number;
  /** BYOK: account id → its provider credentials, read at each call (tests may change it). */
  credentials?: ReadonlyMap<string, ProviderCredential[]>;
}): Promise<ControlPlaneDouble> {
  const server = new grpc.Server();
  server.addService(KeyServiceService, {
    authenticate: unaryHandler(authenticateFrom(options.keys, options.cacheTtlMs)),
    getProviderCredentials: unaryHandler(async (request: { accountId: string }) => ({
      credentials: options.credentials?.get(request.accountId) ?? [],
      cacheTtlMs: 5_000,
    })),
  });
  server.addService(CatalogServiceService, {
    getSnapshot: unaryHandler(async (request: { knownVersion: string }) => {
      const snapshot = options.snapshot();
      if (request.knownVersion === snapshot.version) {
        return { version: snapshot.version, notModified: true, providers: [], models: [] };
      }
      return snapshot;
    }),
  });
  const { billing } = options;
  server.addService(BillingServiceService, {
    admit: unaryHandler(billing.admit.bind(billing)),
    settle: unaryHandler(billing.settle.bind(billing)),
    release: unaryHandler(billing.release.bind(billing)),
    getUsage: unaryHandler(billing.getUsage.bind(billing)),
    acquireLease: unaryHandler(billing.acquireLease.bind(billing)),
    returnLease: unaryHandler(billing.returnLease.bind(billing)),
  });
  const port = await bindGrpcServer(server, "127.0.0.1", 0);
  return { address: `127.0.0.1:${port}`, stop: () => shutdownGrpcServer(server, 500) };
}
