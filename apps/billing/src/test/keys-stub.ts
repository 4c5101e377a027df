import { randomBytes } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { hashSecret, PrincipalResolver } from "@gw/auth";
import {
  type AuthenticateRequest,
  type AuthenticateResponse,
  AuthFailureReason,
  KeyServiceService,
  KeyType,
  LimitReset,
  type Principal,
} from "@gw/proto/keys/v1/keys";
import { bindGrpcServer, shutdownGrpcServer } from "@gw/rpc";

/**
 * Stands in for the keys app (another app, which billing must not import): a real gRPC KeyService
 * answering Authenticate from an in-test table, so REST routes go through the real PrincipalResolver.
 */
export interface KeysStub {
  address: string;
  resolver: PrincipalResolver;
  addKey(accountId: string, kind: "management" | "regular"): string;
  stop(): Promise<void>;
}

export async function startKeysStub(): Promise<KeysStub> {
  const principals = new Map<string, Principal>();
  const server = new grpc.Server();
  server.addService(KeyServiceService, {
    authenticate: (
      call: grpc.ServerUnaryCall<AuthenticateRequest, AuthenticateResponse>,
      callback: grpc.sendUnaryData<AuthenticateResponse>,
    ) => {
      const principal = principals.get(call.request.keyHash);
      callback(null, {
        result: principal
          ? { $case: "principal", value: principal }
          : { $case: "failure", value: AuthFailureReason.AUTH_FAILURE_REASON_KEY_NOT_FOUND },
        cacheTtlMs: 1_000,
      });
    },
  });
  const port = await bindGrpcServer(server, "127.0.0.1", 0);
  const address = `127.0.0.1:${port}`;
  const connection = PrincipalResolver.connect(address);
  return {
    address,
    resolver: connection.resolver,
    addKey: (accountId, kind) => {
      const secret = `lr_${kind === "management" ? "mgmt" : "live"}_${randomBytes(24).toString("hex")}`;
      const keyHash = hashSecret(secret);
      principals.set(keyHash, principal(accountId, keyHash, kind));
      return secret;
    },
    stop: async () => {
      connection.close();
      await shutdownGrpcServer(server);
    },
  };
}

function principal(accountId: string, keyHash: string, kind: "management" | "regular"): Principal {
  return {
    accountId,
    keyHash,
    keyType: kind === "management" ? KeyType.KEY_TYPE_MANAGEMENT : KeyType.KEY_TYPE_REGULAR,
    name: `${kind} key`,
    label: `lr_${kind}...`,
    disabled: false,
    limitReset: LimitReset.LIMIT_RESET_UNSPECIFIED,
    includeByokInLimit: false,
  };
}
