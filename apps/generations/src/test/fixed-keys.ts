import { randomBytes } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { hashSecret } from "@gw/auth";
import {
  AuthFailureReason,
  type KeyServiceServer,
  KeyServiceService,
  KeyType,
  LimitReset,
  type Principal,
} from "@gw/proto/keys/v1/keys";
import { bindGrpcServer, shutdownGrpcServer } from "@gw/rpc";

/**
 * KeyService's contract served from a fixed table of keys: the generations app's authentication path
 * (resolver → gRPC → middleware) is what is under test, not the keys app.
 */
export interface FixedKeys {
  address: string;
  /** Registers a key of the account and returns its secret. */
  issue(accountId: string, kind?: "regular" | "management"): string;
  stop(): Promise<void>;
}

export async function startFixedKeys(): Promise<FixedKeys> {
  const principals = new Map<string, Principal>();
  const service: KeyServiceServer = {
    authenticate: (call, callback) => {
      const principal = principals.get(call.request.keyHash);
      callback(
        null,
        principal
          ? { result: { $case: "principal", value: principal }, cacheTtlMs: 5_000 }
          : {
              result: { $case: "failure", value: AuthFailureReason.AUTH_FAILURE_REASON_KEY_NOT_FOUND },
              cacheTtlMs: 0,
            },
      );
    },
    // Generations never asks for provider credentials; the stub only completes the service.
    getProviderCredentials: (_call, callback) => callback(null, { credentials: [], cacheTtlMs: 0 }),
    ensureWalletAccount: (_call, callback) =>
      callback({ code: grpc.status.UNIMPLEMENTED, details: "not served by the fixed keys" }),
  };
  const server = new grpc.Server();
  server.addService(KeyServiceService, service);
  const port = await bindGrpcServer(server, "127.0.0.1", 0);
  return {
    address: `127.0.0.1:${port}`,
    issue: (accountId, kind = "regular") => {
      const secret = `${kind === "regular" ? "lr_live_" : "lr_mgmt_"}${randomBytes(24).toString("hex")}`;
      const keyHash = hashSecret(secret);
      principals.set(keyHash, {
        accountId,
        keyHash,
        keyType: kind === "regular" ? KeyType.KEY_TYPE_REGULAR : KeyType.KEY_TYPE_MANAGEMENT,
        name: "test key",
        label: "lr_live_abc...wxyz",
        disabled: false,
        limitReset: LimitReset.LIMIT_RESET_UNSPECIFIED,
        includeByokInLimit: false,
      });
      return secret;
    },
    stop: () => shutdownGrpcServer(server, 100),
  };
}
