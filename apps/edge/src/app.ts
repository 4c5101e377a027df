import { errorHandler, jsonBody, notFoundHandler } from "@gw/http";
import express, { type Express } from "express";
import type { EdgeDeps } from "./deps.js";
import { requestLog } from "./middleware/request-log.js";
import { renderSurfaceError } from "./pipeline/error-shape.js";
import { batchRoutes } from "./routes/batches.js";
import { chatCompletionsRoute } from "./routes/chat-completions.js";
import { countTokensRoute } from "./routes/count-tokens.js";
import { embeddingsRoute } from "./routes/embeddings.js";
import { geminiRoute } from "./routes/gemini.js";
import { geminiEmbedMethods } from "./routes/gemini-embed.js";
import { healthzRoute } from "./routes/health.js";
import { keyRoute } from "./routes/key.js";
import { dropChangedKey } from "./routes/key-change-hook.js";
import { messagesRoute } from "./routes/messages.js";
import { modelRoute } from "./routes/model.js";
import { modelsRoute } from "./routes/models.js";
import { passThrough } from "./routes/pass-through.js";
import { proxyRoutes } from "./routes/proxy.js";
import { readyzRoute } from "./routes/ready.js";
import type { Route } from "./routes/route.js";
import { createRuntime, type EdgeRuntime } from "./runtime.js";

/**
 * The edge's HTTP surface. Control-plane routes are forwarded before any body parsing (their owners
 * parse and limit their own bodies); everything else gets `jsonBody()` first and the gateway's error
 * envelope last.
 */
export function createApp(deps: EdgeDeps, runtime: EdgeRuntime = createRuntime(deps)): Express {
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  app.use(requestLog(deps.logger, runtime.now));
  const { keysHttpUrl, billingHttpUrl, generationsHttpUrl } = deps.controlPlane;
  app.use(
    passThrough(
      {
        name: "key service",
        url: keysHttpUrl,
        paths: ["/api/v1/keys", "/api/v1/byok", "/api/v1/models", "/v1/x402/auth"],
        onResponse: dropChangedKey(deps.principals),
      },
      deps.logger,
    ),
  );
  app.use(
    passThrough({ name: "billing service", url: billingHttpUrl, paths: ["/api/v1/credits"] }, deps.logger),
  );
  app.use(
    passThrough(
      { name: "generation service", url: generationsHttpUrl, paths: ["/api/v1/generation"] },
      deps.logger,
    ),
  );
  app.use(jsonBody(runtime.settings.bodyLimit));
  const routes: Route[] = [
    healthzRoute(),
    readyzRoute(deps),
    chatCompletionsRoute(deps, runtime),
    messagesRoute(deps, runtime),
    countTokensRoute(deps, runtime),
    ...batchRoutes(deps),
    embeddingsRoute(deps, runtime),
    geminiRoute(deps, runtime, geminiEmbedMethods(deps, runtime)),
    modelsRoute(deps),
    modelRoute(deps),
    keyRoute(deps),
    // Last: only under the catalogue's provider ids, after every fixed route.
    ...proxyRoutes(deps, runtime),
  ];
  for (const route of routes) app[route.method](route.path, ...route.handlers);
  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger, renderSurfaceError));
  return app;
}
