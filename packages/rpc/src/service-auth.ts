import { createPublicKey, type KeyObject } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { ConfigError, z } from "@gw/config";
import { CHANNEL_OPTIONS } from "./client.js";
import { clientMetricsInterceptor, serverMetricsInterceptor } from "./grpc-metrics.js";
import { type CallerPolicy, serviceAuthInterceptor, serviceTokenInterceptor } from "./grpc-service-auth.js";
import { clientTracingInterceptor, serverTracingInterceptor } from "./grpc-tracing.js";
import {
  generateServiceKeys,
  parseServicePrivateKey,
  parseServicePublicKeys,
  publicKeyList,
  SERVICE_NAMES,
  ServiceKeyError,
  type ServiceKeyPair,
  type ServiceName,
} from "./service-keys.js";
import { ServiceTokenIssuer, ServiceTokenVerifier } from "./service-tokens.js";

/** An app's part in service-to-service authentication: it signs as itself and checks its callers. */
export interface ServiceAuth {
  issuer: ServiceTokenIssuer;
  verifier: ServiceTokenVerifier;
}

export function serviceAuth(
  identity: ServiceName,
  privateKey: KeyObject,
  publicKeys: ReadonlyMap<ServiceName, KeyObject>,
): ServiceAuth {
  return {
    issuer: new ServiceTokenIssuer(identity, privateKey),
    verifier: new ServiceTokenVerifier(identity, publicKeys),
  };
}

/** Every app's auth from one key set (the embedded default runs all four apps in one process). */
export function serviceAuthSet(
  keys: Record<ServiceName, ServiceKeyPair> = generateServiceKeys(),
): Record<ServiceName, ServiceAuth> {
  const publicKeys = publicKeyList(keys);
  const entries = SERVICE_NAMES.map((name) => [
    name,
    serviceAuthFromConfig(name, {
      SERVICE_AUTH_PRIVATE_KEY: keys[name].privateKey,
      SERVICE_AUTH_PUBLIC_KEYS: publicKeys,
    }),
  ]);
  return Object.fromEntries(entries) as Record<ServiceName, ServiceAuth>;
}

const keyCheck =
  (parse: (value: string) => unknown) =>
  (value: string | undefined, context: z.RefinementCtx): void => {
    if (value === undefined) return;
    try {
      parse(value);
    } catch (error) {
      // The message says what is wrong with the value, never the value (it is a secret).
      context.addIssue({
        code: "custom",
        message: error instanceof ServiceKeyError ? error.message : "invalid",
      });
    }
  };

/** The env variables of service authentication, for each app's loadConfig. */
export const serviceAuthEnv = {
  /** This app's Ed25519 signing key: the 32-byte seed, base64url (`gw service-keys` makes a set). */
  SERVICE_AUTH_PRIVATE_KEY: z.string().optional().superRefine(keyCheck(parseServicePrivateKey)),
  /** `edge=<key>,keys=<key>,billing=<key>,generations=<key>`: the apps' public keys. */
  SERVICE_AUTH_PUBLIC_KEYS: z.string().optional().superRefine(keyCheck(parseServicePublicKeys)),
};

export interface ServiceAuthSettings {
  SERVICE_AUTH_PRIVATE_KEY?: string | undefined;
  SERVICE_AUTH_PUBLIC_KEYS?: string | undefined;
}

/**
 * The split plane's apps cannot start without their keys: an unauthenticated control plane hands
 * out decrypted provider keys to whoever reaches its port (loopback binding is not authentication).
 */
export function serviceAuthFromConfig(identity: ServiceName, settings: ServiceAuthSettings): ServiceAuth {
  const missing = [
    settings.SERVICE_AUTH_PRIVATE_KEY
      ? undefined
      : `SERVICE_AUTH_PRIVATE_KEY: required by the ${identity} app`,
    settings.SERVICE_AUTH_PUBLIC_KEYS
      ? undefined
      : `SERVICE_AUTH_PUBLIC_KEYS: required by the ${identity} app`,
  ].filter((issue): issue is string => issue !== undefined);
  if (missing.length > 0) throw new ConfigError(missing);
  const publicKeys = parseServicePublicKeys(settings.SERVICE_AUTH_PUBLIC_KEYS as string);
  const privateKey = parseServicePrivateKey(settings.SERVICE_AUTH_PRIVATE_KEY as string);
  const own = publicKeys.get(identity);
  if (!own) throw new ConfigError([`SERVICE_AUTH_PUBLIC_KEYS: has no entry for ${identity}`]);
  // A key pasted into the wrong app would fail every call it makes; say so at start instead.
  if (!own.equals(createPublicKey(privateKey))) {
    throw new ConfigError([
      `SERVICE_AUTH_PRIVATE_KEY: does not match the ${identity} entry of SERVICE_AUTH_PUBLIC_KEYS`,
    ]);
  }
  return serviceAuth(identity, privateKey, publicKeys);
}

/** Channel and client options for a client of `audience`, with this app's token when auth is on. */
export function clientOptions(
  issuer: ServiceTokenIssuer | undefined,
  audience: ServiceName,
): Partial<grpc.ClientOptions> {
  // The metrics interceptor first (outermost): it times the call including the token's signing.
  const interceptors = issuer
    ? [clientMetricsInterceptor(), clientTracingInterceptor(), serviceTokenInterceptor(issuer, audience)]
    : [clientMetricsInterceptor(), clientTracingInterceptor()];
  return { ...CHANNEL_OPTIONS, interceptors };
}

type AuthLogger = { warn(obj: object, message: string): void };

/** A gRPC server that checks its callers against `policy` when auth is on. */
export function createAuthenticatedServer(
  auth: { verifier: ServiceTokenVerifier; policy: CallerPolicy; logger?: AuthLogger } | undefined,
): grpc.Server {
  if (!auth)
    return new grpc.Server({ interceptors: [serverMetricsInterceptor(), serverTracingInterceptor()] });
  return new grpc.Server({
    interceptors: [
      serverMetricsInterceptor(),
      serverTracingInterceptor(),
      serviceAuthInterceptor(auth.verifier, auth.policy, auth.logger),
    ],
  });
}
