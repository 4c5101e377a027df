import type * as grpc from "@grpc/grpc-js";
import { type CallOptions, insecureCredentials, type UnaryMethod, unaryCall } from "./client.js";
import { clientOptions } from "./service-auth.js";
import type { ServiceName } from "./service-keys.js";
import type { ServiceTokenIssuer } from "./service-tokens.js";

/** A generated client's constructor (ts-proto's grpc-js `XServiceClient`): its `service` lists the methods. */
export interface GeneratedClient<Client extends grpc.Client> {
  new (address: string, credentials: grpc.ChannelCredentials, options?: Partial<grpc.ClientOptions>): Client;
  readonly service: grpc.ServiceDefinition;
}

/**
 * A generated unary method as `(request, options?) => Promise<response>`. Inferred from the method's
 * last overload, (request, metadata, options, callback), which every ts-proto grpc-js method has.
 */
export type PromiseMethod<Method> =
  Method extends UnaryMethod<infer Request, infer Response>
    ? (request: Request, options?: CallOptions) => Promise<Response>
    : never;

/** The service's own methods: what the generated interface adds to grpc-js's Client. */
type ServiceMethodName<Client extends grpc.Client> = Exclude<keyof Client, keyof grpc.Client>;

/** Every unary method of a generated client, promise-returning, with the same names and message types. */
export type PromiseClient<Client extends grpc.Client> = {
  readonly [Name in ServiceMethodName<Client> as [PromiseMethod<Client[Name]>] extends [never]
    ? never
    : Name]: PromiseMethod<Client[Name]>;
};

export type ConnectedClient<Client extends grpc.Client> = PromiseClient<Client> & { close(): void };

export interface ConnectClientOptions<Client extends grpc.Client> {
  /** The app being called: the service token is addressed to it. */
  audience: ServiceName;
  /** Signs every call as the calling app; absent where service auth is off (tests of one app). */
  issuer?: ServiceTokenIssuer | undefined;
  /** Each call's deadline, unless `timeouts` names its method or the call passes its own. */
  timeoutMs: number;
  /** A longer (or shorter) deadline for some methods, e.g. one that reads a large result. */
  timeouts?: Partial<Record<keyof PromiseClient<Client>, number>>;
}

/**
 * One channel to `address` with the generated client's methods as promises: each call gets its
 * deadline, the channel the metrics, tracing and service-token interceptors (clientOptions). A failed
 * call rejects with grpc-js's ServiceError, which the caller maps (dependencyError) as it sees fit.
 */
export function connectClient<Client extends grpc.Client>(
  Generated: GeneratedClient<Client>,
  address: string,
  options: ConnectClientOptions<Client>,
): ConnectedClient<Client> {
  const client = new Generated(
    address,
    insecureCredentials(),
    clientOptions(options.issuer, options.audience),
  );
  const timeouts: Partial<Record<string, number>> = options.timeouts ?? {};
  const methods = Object.entries(Generated.service)
    // A streaming method has no promise form; none of the gateway's services has one today.
    .filter(([, definition]) => !definition.requestStream && !definition.responseStream)
    .map(([name]) => {
      const method = (client as unknown as Record<string, UnaryMethod<unknown, unknown>>)[name];
      if (!method) throw new Error(`generated client has no method ${name}`);
      return [name, unaryCall(client, method, { timeoutMs: timeouts[name] ?? options.timeoutMs })] as const;
    });
  // The mapped type is what these entries are: one promise method per unary method of the service.
  const typed = Object.fromEntries(methods) as unknown as PromiseClient<Client>;
  return Object.assign(typed, { close: () => client.close() });
}
