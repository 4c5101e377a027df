import { errorHandler, jsonBody, notFoundHandler, rejectMalformedUrl } from "@gw/http";
import express, { type Express } from "express";
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
 * The edge's HTTP surface. Control-plane routes are forwarded before any body parsing (their owners
 * parse and limit their own bodies); everything else gets `jsonBody()` first and the gateway's error
 * envelope last.
 */
export function createApp(deps: EdgeDeps, context: EdgeContext = createEdgeContext(deps)): Express {
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  // SERVER_TIMING=true: each answer names where its time went on the edge (see pipeline/server-timing.ts).
  if (context.settings.serverTiming) app.use(serverTiming());
  app.use(requestLog(deps.logger, context.now));
  // `%ff` or `%00` in a path or query is a 400 in the surface's shape before a route decodes it (a bad
  // escape in a route parameter, e.g. a Gemini model name, was rendered as a 500).
  app.use(rejectMalformedUrl());
  app.use(
    floodGuard(context.settings.flood, context.now, new TrustedProxies(context.settings.trustedProxies)),
  );
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
        url: generationsHttpUrl,
        paths: [...FORWARDED_PATHS.generations],
        serviceToken: issuer && (() => issuer.tokenFor("generations")),
      },
      deps.logger,
    ),
  );
  app.use(jsonBody({ limit: context.settings.bodyLimit, timeoutMs: context.settings.bodyTimeoutMs }));
  const x402 =
    deps.payments &&
    createX402Runtime(deps.payments, {
      publisher: deps.bus,
      paymentsTopic: deps.topics.payments,
      logger: deps.logger,
      now: context.now,
      publicBaseUrl: context.settings.publicBaseUrl,
    });
  if (x402) app.use(x402Payments(x402));
  // Probes and the document are not traced: only the API's requests get a server span.
  const untraced: Route[] = [healthzRoute(), readyzRoute(context), openApiRoute()];
  const routes: Route[] = [
    chatCompletionsRoute(context),
    responsesRoute(context),
    completionsRoute(context),
    messagesRoute(context),
    countTokensRoute(context),
    ...batchRoutes(context),
    embeddingsRoute(context),
    geminiRoute(context, geminiEmbedMethods(context)),
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
  if (x402) app.use(offerOnRefusal(x402));
  app.use(errorHandler(deps.logger, withPaymentOffer(renderSurfaceError)));
  return app;
}
