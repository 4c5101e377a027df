import * as grpc from "@grpc/grpc-js";
import type { ServiceName } from "./service-keys.js";
import {
  SERVICE_TOKEN_HEADER,
  ServiceAuthError,
  type ServiceTokenIssuer,
  type ServiceTokenVerifier,
} from "./service-tokens.js";

/** For each RPC of a service (its full path), the apps allowed to call it. */
export type CallerPolicy = ReadonlyMap<string, ReadonlySet<ServiceName>>;

/**
 * The callers of every method of one service definition. Typed over the definition's methods so a
 * new RPC does not compile until someone decides who may call it.
 */
export function callersOf<Definition extends grpc.ServiceDefinition>(
  definition: Definition,
  callers: { readonly [Method in keyof Definition]: readonly ServiceName[] },
): Array<[string, ReadonlySet<ServiceName>]> {
  return Object.keys(definition).map((method) => [
    (definition[method] as grpc.MethodDefinition<unknown, unknown>).path,
    new Set(callers[method as keyof Definition]),
  ]);
}

export function callerPolicy(...services: Array<Array<[string, ReadonlySet<ServiceName>]>>): CallerPolicy {
  return new Map(services.flat());
}

type AuthLogger = { warn(obj: object, message: string): void };

/**
 * The server side: every call must carry a service token addressed to this app (UNAUTHENTICATED
 * otherwise) from an app the method's policy lists (PERMISSION_DENIED otherwise). A method missing
 * from the policy answers nobody. A token seen before is checked from the verifier's cache,
 * synchronously; only a new one costs a signature check.
 */
export function serviceAuthInterceptor(
  verifier: ServiceTokenVerifier,
  policy: CallerPolicy,
  logger?: AuthLogger,
): grpc.ServerInterceptor {
  return (method, call) =>
    new grpc.ServerInterceptingCall(call, {
      start: (next) => {
        next({
          onReceiveMetadata: (metadata, forward) => {
            const refuse = (code: grpc.status, details: string, why: object): void => {
              logger?.warn({ method: method.path, ...why }, "service call refused");
              call.sendStatus({ code, details, metadata: new grpc.Metadata() });
            };
            const admit = (caller: ServiceName): void => {
              if (policy.get(method.path)?.has(caller)) forward(metadata);
              else refuse(grpc.status.PERMISSION_DENIED, `${caller} may not call ${method.path}`, { caller });
            };
            const token = tokenOf(metadata);
            const cached = token === undefined ? undefined : verifier.cachedIssuer(token);
            if (cached) {
              admit(cached);
              return;
            }
            verifier.verify(token).then(admit, (error: unknown) => {
              const reason = error instanceof ServiceAuthError ? error.reason : "malformed";
              refuse(grpc.status.UNAUTHENTICATED, `service token refused (${reason})`, { reason });
            });
          },
        });
      },
    });
}

function tokenOf(metadata: grpc.Metadata): string | undefined {
  const values = metadata.get(SERVICE_TOKEN_HEADER);
  // Exactly one: two tokens on one call are an attempt to confuse, not a retry.
  if (values.length !== 1) return undefined;
  const value = values[0];
  return typeof value === "string" ? value : undefined;
}

/** The client side: puts this app's token for `audience` on every call of a client. */
export function serviceTokenInterceptor(issuer: ServiceTokenIssuer, audience: ServiceName): grpc.Interceptor {
  return (options, nextCall) =>
    new grpc.InterceptingCall(nextCall(options), {
      start: (metadata, listener, next) => {
        const cached = issuer.cached(audience);
        if (cached) {
          metadata.set(SERVICE_TOKEN_HEADER, cached);
          next(metadata, listener);
          return;
        }
        // grpc-js holds the call's message until start completes, so signing may take a tick.
        issuer.tokenFor(audience).then(
          (token) => {
            metadata.set(SERVICE_TOKEN_HEADER, token);
            next(metadata, listener);
          },
          // A key that cannot sign sends the call without a token: the server answers UNAUTHENTICATED.
          () => next(metadata, listener),
        );
      },
    });
}
