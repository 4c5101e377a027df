import type { IncomingMessage } from "node:http";
import { errorHandler, jsonBody, notFoundHandler, rejectMalformedUrl } from "@gw/http";
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from "express";
import { mountConsole } from "./console/index.js";
import { createEdgeContext } from "./context.js";
import type { EdgeDeps } from "./deps.js";
import { FORWARDED_PATHS } from "./forwarded-paths.js";
import { TrustedProxies } from "./middleware/client-address.js";
import { floodGuard } from "./middleware/flood-guard.js";
import { dropChangedKey } from "./middleware/key-change-hook.js";
import { passThrough } from "./middleware/pass-through.js";
import { requestLog } from "./middleware/request-log.js";
import { offerOnRefusal, x402Payments } from "./payments/middleware.js";
import { withPaymentOffer } from "./payments/offer-error.js";
import { createX402Runtime } from "./payments/runtime.js";
import type { EdgeContext } from "./pipeline/edge-context.js";
import { renderSurfaceError } from "./pipeline/error-shape.js";
import { serverTiming } from "./pipeline/server-timing.js";
import { serverSpan } from "./pipeline/tracing.js";
import { batchRoutes } from "./routes/batches.js";
import { chatCompletionsRoute } from "./routes/chat-completions.js";
import { completionsRoute } from "./routes/completions.js";
import { countTokensRoute } from "./routes/count-tokens.js";
import { embeddingsRoute } from "./routes/embeddings.js";
import { geminiRoute } from "./routes/gemini.js";
import { geminiEmbedMethods } from "./routes/gemini-embed.js";
import { healthzRoute } from "./routes/health.js";
import { keyRoute } from "./routes/key.js";
import { messagesRoute } from "./routes/messages.js";
import { modelRoute } from "./routes/model.js";
import { modelsRoute, userModelsRoute } from "./routes/models.js";
import { openApiRoute } from "./routes/openapi.js";
import { proxyRoutes } from "./routes/proxy.js";
import { readyzRoute } from "./routes/ready.js";
import { responsesRoute } from "./routes/responses.js";
import type { Route } from "./routes/route.js";

/**
 * The middleware every API request goes through, in order, built once: the express app and the hot
 * path (hot-path.ts) run the same instances, so e.g. the flood guard's buckets are one set.
 */
export interface EdgeStack {
  /** Before any route: server timing, request id and log, the malformed-URL check, the flood guard. */
  front: RequestHandler[];
  /** The JSON body reader (size limit, 408). */
  body: RequestHandler;
  /** x402 on the inference routes, when payments are configured. */
  payments: RequestHandler | undefined;
  /** After the routes: the wallet's offer on a refused request (x402), then the error envelope. */
  errors: ErrorRequestHandler[];
}

/** The inference routes the hot path dispatches without express (same instances as the app's). */
export interface InferenceRoutes {
  exact: Route[];
  gemini: Route;
}

export interface EdgeHttp {
  app: Express;
  stack: EdgeStack;
  inference: InferenceRoutes;
}

/**
 * The edge's HTTP surface. Control-plane routes are forwarded before any body parsing (their owners
 * parse and limit their own bodies); everything else gets `jsonBody()` first and the gateway's error
 * envelope last.
 */
export function createApp(deps: EdgeDeps, context: EdgeContext = createEdgeContext(deps)): Express {
  return createEdgeHttp(deps, context).app;
}

/** The express app and the pieces of it the hot path (hot-path.ts) runs itself. */
export function createEdgeHttp(deps: EdgeDeps, context: EdgeContext): EdgeHttp {
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  const front: RequestHandler[] = [];
  // SERVER_TIMING=true: each answer names where its time went on the edge (see pipeline/server-timing.ts).
  if (context.settings.serverTiming) front.push(serverTiming());
  front.push(requestLog(deps.logger, context.now));
  // `%ff` or `%00` in a path or query is a 400 in the surface's shape before a route decodes it (a bad
  // escape in a route parameter, e.g. a Gemini model name, was rendered as a 500).
  front.push(rejectMalformedUrl());
  const proxies = new TrustedProxies(context.settings.trustedProxies);
  front.push(floodGuard(context.settings.flood, context.now, proxies));
  const clientAddress = (request: IncomingMessage) =>
    proxies.clientAddress(request.socket.remoteAddress, request.headers["x-forwarded-for"]);
  for (const handler of front) app.use(handler);
  // Static files, before the body parser and outside the API's authentication (the API checks the
  // credential the console sends).
  if (context.settings.console) mountConsole(app, context.settings.console, deps.logger);
  // Before the key service's /api/v1/models prefix: which providers a key reaches is the edge's to say.
  const userModels = userModelsRoute(context);
  app[userModels.method](userModels.path, ...userModels.handlers);
  const { keysHttpUrl, billingHttpUrl, generationsHttpUrl, issuer } = deps.controlPlane;
  app.use(
    passThrough(
      {
        name: "key service",
        clientAddress,
        url: keysHttpUrl,
        paths: [...FORWARDED_PATHS.keys],
        onResponse: dropChangedKey(deps.principals),
        serviceToken: issuer && (() => issuer.tokenFor("keys")),
      },
      deps.logger,
    ),
  );
  app.use(
    passThrough(
      {
        name: "billing service",
        clientAddress,
        url: billingHttpUrl,
        paths: [...FORWARDED_PATHS.billing],
        serviceToken: issuer && (() => issuer.tokenFor("billing")),
      },
      deps.logger,
    ),
  );
  app.use(
    passThrough(
      {
        name: "generation service",
        clientAddress,
        url: generationsHttpUrl,
        paths: [...FORWARDED_PATHS.generations],
        serviceToken: issuer && (() => issuer.tokenFor("generations")),
      },
      deps.logger,
    ),
  );
  const body = jsonBody({ limit: context.settings.bodyLimit, timeoutMs: context.settings.bodyTimeoutMs });
  app.use(body);
  const x402 =
    deps.payments &&
    createX402Runtime(deps.payments, {
      publisher: deps.bus,
      paymentsTopic: deps.topics.payments,
      logger: deps.logger,
      now: context.now,
      clientAddress,
    });
  const payments = x402 ? x402Payments(x402) : undefined;
  if (payments) app.use(payments);
  // Probes and the document are not traced: only the API's requests get a server span.
  const untraced: Route[] = [healthzRoute(), readyzRoute(context), openApiRoute()];
  const chat = chatCompletionsRoute(context);
  const responses = responsesRoute(context);
  const completions = completionsRoute(context);
  const messages = messagesRoute(context);
  const embeddings = embeddingsRoute(context);
  const inference: InferenceRoutes = {
    exact: [chat, responses, completions, messages, embeddings],
    gemini: geminiRoute(context, geminiEmbedMethods(context)),
  };
  const routes: Route[] = [
    chat,
    responses,
    completions,
    messages,
    countTokensRoute(context),
    ...batchRoutes(context),
    embeddings,
    inference.gemini,
    modelsRoute(context),
    modelRoute(context),
    keyRoute(context),
    // Last: only under the catalogue's provider ids, after every fixed route.
    ...proxyRoutes(context),
  ];
  // Counted while they run: a stop waits for them (a cut stream still publishes its usage).
  for (const route of untraced)
    app[route.method](route.path, ...route.handlers.map((h) => context.inFlight.track(h)));
  for (const route of routes)
    app[route.method](
      route.path,
      serverSpan(route.method, route.path),
      ...route.handlers.map((h) => context.inFlight.track(h)),
    );
  app.use(notFoundHandler());
  const errors: ErrorRequestHandler[] = [];
  if (x402) errors.push(offerOnRefusal(x402));
  errors.push(errorHandler(deps.logger, withPaymentOffer(renderSurfaceError)));
  for (const handler of errors) app.use(handler);
  return { app, stack: { front, body, payments, errors }, inference };
}
