import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseJsonBody, readBody, sendJson, sleep, untilAborted } from "./http.js";
import { PromptCache } from "./prompt-cache.js";
import { type LoggedRequest, RequestLog } from "./request-log.js";
import {
  parseScenarioHeader,
  parseServerScenarios,
  ScenarioError,
  ScenarioStore,
  type ServerScenario,
  type Steering,
  steeringFor,
} from "./scenario.js";

export type ProviderName = "openai" | "anthropic" | "gemini" | "bedrock" | "vertex" | "azure" | "exa";

export interface FakeServerOptions {
  /** Default 127.0.0.1: the fakes are for loopback use only. */
  readonly host?: string;
  /** Default 0 (an ephemeral port). */
  readonly port?: number;
  /**
   * When set, only this credential (or these: a gateway's own key and an account's BYOK key side by
   * side) is accepted; any other gets the provider's authentication error.
   */
  readonly apiKey?: string | readonly string[];
  /** Default true: a request without any credential is refused, as the real APIs do. */
  readonly requireKey?: boolean;
  /** When set, other model names get the provider's "model not found"; by default every name is served. */
  readonly knownModels?: readonly string[];
  /** How many requests `GET /__fake/requests` keeps. Default 100. */
  readonly logLimit?: number;
}

export interface ResolvedOptions {
  /** The accepted credentials, or null to accept any. */
  readonly apiKeys: readonly string[] | null;
  readonly requireKey: boolean;
  readonly knownModels: readonly string[] | null;
}

export interface ExchangeContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  readonly body: unknown;
  /** The body's text as received (the fake Bedrock hashes it to check a request's SigV4 signature). */
  readonly rawBody: string;
  readonly steering: Steering;
  readonly requestId: string;
  /** Aborts when the client disconnects or the server closes. */
  readonly signal: AbortSignal;
  readonly options: ResolvedOptions;
  /** The server's prompt cache (used under the `cache` scenario). */
  readonly promptCache: PromptCache;
}

export interface ProviderError {
  readonly status: number;
  readonly message?: string;
  readonly retryAfter?: number;
  /** Provider-specific detail (OpenAI `code`, Gemini `reason`), when the error has one. */
  readonly code?: string;
  readonly param?: string;
  /** Structured detail the provider adds to the error body (Gemini's `google.rpc.BadRequest`). */
  readonly details?: readonly unknown[];
}

/** What makes a fake server speak one provider's API. */
export interface ProviderDefinition {
  readonly name: ProviderName;
  /** Appended to the origin to form the base URL the provider's SDK expects (`/v1` for OpenAI). */
  readonly basePath: string;
  readonly requestIdHeader: string | null;
  newRequestId(): string;
  /** The provider's refusal of a missing or wrong credential, or null to let the request through. */
  authenticate(ctx: ExchangeContext): ProviderError | null | Promise<ProviderError | null>;
  /** Writes an error in the provider's shape (status, body, headers). */
  sendError(ctx: ExchangeContext, error: ProviderError): void;
  /** Answers a request that passed authentication and steering. */
  handle(ctx: ExchangeContext): Promise<void>;
}

export interface FakeServer {
  readonly provider: ProviderName;
  readonly host: string;
  readonly port: number;
  /** The origin, e.g. `http://127.0.0.1:9101`. */
  readonly url: string;
  /** What to put in `<PROVIDER>_BASE_URL` or the SDK's `baseURL`. */
  readonly baseUrl: string;
  requests(limit?: number): LoggedRequest[];
  clearRequests(): void;
  /** Responses whose client went away before they ended (an aborted upstream call, from our side). */
  disconnects(): number;
  /** Replaces the server-held scenarios (see `ServerScenario.times` and `.path`). */
  setScenario(scenario: ServerScenario | readonly ServerScenario[]): void;
  resetScenario(): void;
  close(): Promise<void>;
}

const CONTROL_PREFIX = "/__fake/";

export async function startFakeServer(
  definition: ProviderDefinition,
  options: FakeServerOptions = {},
): Promise<FakeServer> {
  const host = options.host ?? "127.0.0.1";
  const resolved: ResolvedOptions = {
    apiKeys:
      options.apiKey === undefined
        ? null
        : typeof options.apiKey === "string"
          ? [options.apiKey]
          : options.apiKey,
    requireKey: options.requireKey ?? true,
    knownModels: options.knownModels ?? null,
  };
  const log = new RequestLog(options.logLimit ?? 100);
  const scenarios = new ScenarioStore();
  const promptCache = new PromptCache();
  const inFlight = new Set<AbortController>();
  let disconnects = 0;

  const server = createServer((req, res) => {
    const abort = new AbortController();
    inFlight.add(abort);
    res.on("close", () => {
      if (!res.writableFinished) disconnects++;
      inFlight.delete(abort);
      abort.abort();
    });
    handleRequest(req, res, abort.signal).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, { error: { message: `fake ${definition.name} failed: ${String(error)}` } });
    });
  });

  async function handleRequest(
    req: IncomingMessage,
    res: ServerResponse,
    signal: AbortSignal,
  ): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake.invalid");
    const raw = await readBody(req);
    if (url.pathname.startsWith(CONTROL_PREFIX)) return control(req, res, url, raw);

    const parsed = parseJsonBody(raw);
    const seq = log.add(
      req.method ?? "GET",
      req.url ?? "/",
      req.headers,
      parsed.ok ? parsed.value : parsed.raw,
    );
    // What the fake answered, on its own side: the status when the head is written (before any byte
    // reaches the caller), and a refusal's body when it ends, so a test can tell the provider's own
    // refusal relayed by a gateway from anything the gateway answered itself.
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    res.writeHead = ((...args: unknown[]) => {
      const written = writeHead(...args);
      log.answered(seq, res.statusCode);
      return written;
    }) as ServerResponse["writeHead"];
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((...args: unknown[]) => {
      const [chunk] = args;
      if (res.statusCode >= 400 && (typeof chunk === "string" || chunk instanceof Uint8Array))
        log.answered(seq, res.statusCode, Buffer.from(chunk).toString("utf8"));
      return end(...args);
    }) as ServerResponse["end"];
    const requestId = definition.newRequestId();
    if (definition.requestIdHeader) res.setHeader(definition.requestIdHeader, requestId);

    const base = {
      req,
      res,
      url,
      body: parsed.ok ? parsed.value : null,
      rawBody: raw,
      requestId,
      signal,
      options: resolved,
      promptCache,
    };
    const header = req.headers["x-fake-scenario"];
    let steering: Steering;
    try {
      // A request's own scenario replaces the server's for that request and leaves the server's unconsumed.
      steering = steeringFor(
        typeof header === "string" && header.trim() !== ""
          ? parseScenarioHeader(header)
          : scenarios.take(url.pathname),
      );
    } catch (error) {
      if (!(error instanceof ScenarioError)) throw error;
      definition.sendError({ ...base, steering: steeringFor([]) }, { status: 400, message: error.message });
      return;
    }
    const ctx: ExchangeContext = { ...base, steering };

    const authError = await definition.authenticate(ctx);
    if (authError) return definition.sendError(ctx, authError);
    if (!parsed.ok)
      return definition.sendError(ctx, { status: 400, message: "the request body is not valid JSON" });
    if (steering.hang) return untilAborted(signal);
    if (steering.delayMs > 0 && !(await sleep(steering.delayMs, signal))) return;
    if (steering.failure) return definition.sendError(ctx, steering.failure);
    await definition.handle(ctx);
  }

  function control(req: IncomingMessage, res: ServerResponse, url: URL, raw: string): void {
    const route = `${req.method ?? "GET"} ${url.pathname}`;
    if (route === "GET /__fake/requests") {
      const limit = url.searchParams.get("limit");
      sendJson(res, 200, { requests: log.list(limit === null ? undefined : Number(limit)) });
    } else if (route === "DELETE /__fake/requests") {
      log.clear();
      res.writeHead(204).end();
    } else if (route === "GET /__fake/scenario") {
      sendJson(res, 200, { scenarios: scenarios.list() });
    } else if (route === "POST /__fake/scenario") {
      const parsed = parseJsonBody(raw);
      try {
        if (!parsed.ok) throw new ScenarioError("body is not valid JSON");
        scenarios.set(parseServerScenarios(parsed.value));
        sendJson(res, 200, { scenarios: scenarios.list() });
      } catch (error) {
        if (!(error instanceof ScenarioError)) throw error;
        sendJson(res, 400, { error: { message: error.message } });
      }
    } else if (route === "DELETE /__fake/scenario") {
      scenarios.reset();
      res.writeHead(204).end();
    } else if (route === "GET /__fake/health") {
      sendJson(res, 200, { ok: true, provider: definition.name });
    } else {
      sendJson(res, 404, { error: { message: `unknown control route ${route}` } });
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;

  return {
    provider: definition.name,
    host,
    port,
    url,
    baseUrl: `${url}${definition.basePath}`,
    requests: (limit) => log.list(limit),
    clearRequests: () => log.clear(),
    setScenario: (scenario) =>
      scenarios.set(Array.isArray(scenario) ? scenario : [scenario as ServerScenario]),
    resetScenario: () => scenarios.reset(),
    disconnects: () => disconnects,
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Hung and streaming requests would otherwise keep the server open forever.
        for (const abort of inFlight) abort.abort();
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** Whether a presented credential is one the server accepts. */
export function keyAccepted(options: ResolvedOptions, key: string): boolean {
  return options.apiKeys === null || options.apiKeys.includes(key);
}
