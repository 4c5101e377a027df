import { GatewayError } from "@gw/errors";
import { parseOrThrow } from "@gw/http";
import { picoToDecimalString, usdToPico } from "@gw/money";
import type { Model, Pricing } from "@gw/proto/catalog/v1/catalog";
import type { Request, RequestHandler, Router } from "express";
import type { Kysely } from "kysely";
import type { KeysTables } from "../db/schema.js";
import { CatalogChangeError, importCatalog, listCatalog } from "./admin.js";
import {
  aliasBody,
  dataPolicyBody,
  disableBody,
  importBody,
  modelLimitBody,
  setPriceBody,
} from "./admin-schemas.js";
import type { CatalogContent } from "./content.js";
import { setAlias, setDataPolicy, setDisabled, setModelLimit, setPrice } from "./operations.js";
import type { OperatorGate } from "./operators.js";
import { HighPriceError, highPriceProblem } from "./price-guard.js";
import { type ChangeResult, changeCatalog, readCatalogChanges } from "./store.js";

export const ADMIN_CATALOG_PATH = "/api/v1/admin/catalog";

export interface CatalogAdminContext {
  db: Kysely<KeysTables>;
  /** Identity's operator check (app.ts passes it in): only an operator token passes. */
  operators: OperatorGate;
  /** The release's bundled seed (or a test's), which operator changes are laid over. */
  seed: CatalogContent;
}

/**
 * Registers the routes under ADMIN_CATALOG_PATH on the app (app.ts), each behind requireOperator, as
 * routes of their own so the OpenAPI coverage test sees them.
 */
export function mountCatalogAdmin(app: Pick<Router, "get" | "post">, context: CatalogAdminContext): void {
  const operator = context.operators.require;
  const router = {
    get: (path: string, handler: RequestHandler) =>
      app.get(`${ADMIN_CATALOG_PATH}${path}`, operator, handler),
    post: (path: string, handler: RequestHandler) =>
      app.post(`${ADMIN_CATALOG_PATH}${path}`, operator, handler),
  };
  router.get("", async (_request, response) => {
    const listing = await listCatalog(context.db);
    response.json({
      version: listing.version ?? null,
      data: listing.content.models.map(modelView),
      disabled: listing.disabled.map((entry) => ({ model: entry.modelId, provider: entry.providerId })),
    });
  });
  router.get("/changes", async (_request, response) => {
    const changes = await readCatalogChanges(context.db, 100);
    response.json({
      data: changes.map((change) => ({
        id: change.id,
        at: change.at.toISOString(),
        actor: change.actor,
        action: change.action,
        version_before: change.versionBefore,
        version_after: change.versionAfter,
        diff: change.diff,
      })),
    });
  });
  router.post("/import", async (request, response) => {
    const body = parseOrThrow(importBody, request.body);
    const result = await refusing(() =>
      importCatalog(context.db, context.seed, {
        format: body.format,
        text: body.content,
        apply: body.apply,
        actor: context.operators.actor(request),
        skipUnknownProviders: body.skip_unknown_providers,
        providerId: body.provider,
        refuseHighPrices: !body.confirm_high_prices,
      }),
    );
    response.json({ ...resultView(result), models: result.models, skipped: result.skipped });
  });
  router.post("/prices", async (request, response) => {
    const body = parseOrThrow(setPriceBody, request.body);
    const edit = setPrice({
      modelId: body.model,
      providerId: body.provider,
      pricing: pricingFromBody(body.pricing ?? {}),
      upstreamModel: body.upstream_model,
      contextLength: body.context_length,
      maxCompletionTokens: body.max_completion_tokens,
      inputModalities: body.input_modalities,
    });
    const confirmed = body.confirm_high_prices;
    response.json(resultView(await change(context, request, "set-price", edit, !confirmed)));
  });
  router.post("/data-policy", async (request, response) => {
    const body = parseOrThrow(dataPolicyBody, request.body);
    const edit = setDataPolicy({
      modelId: body.model,
      providerId: body.provider,
      isZdr: body.is_zdr,
      mayTrainOnData: body.may_train_on_data,
      quantization: body.quantization === null ? "" : body.quantization,
    });
    response.json(resultView(await change(context, request, "data-policy", edit)));
  });
  for (const [path, disabled] of [
    ["/disable", true],
    ["/enable", false],
  ] as const) {
    router.post(path, async (request, response) => {
      const body = parseOrThrow(disableBody, request.body);
      const edit = setDisabled({ modelId: body.model, providerId: body.provider, disabled });
      response.json(resultView(await change(context, request, path.slice(1), edit)));
    });
  }
  router.post("/limits", async (request, response) => {
    const body = parseOrThrow(modelLimitBody, request.body);
    const limit = body.limit && {
      requests: body.limit.requests,
      intervalSeconds: body.limit.interval_seconds,
    };
    response.json(
      resultView(await change(context, request, "model-limit", setModelLimit(body.model, limit))),
    );
  });
  router.post("/aliases", async (request, response) => {
    const body = parseOrThrow(aliasBody, request.body);
    response.json(resultView(await change(context, request, "alias", setAlias(body.alias, body.model))));
  });
}

function change(
  context: CatalogAdminContext,
  request: Request,
  action: string,
  edit: Parameters<typeof changeCatalog>[2]["edit"],
  refuseHighPrices = false,
): Promise<ChangeResult> {
  return refusing(() =>
    changeCatalog(context.db, context.seed, {
      actor: context.operators.actor(request),
      action,
      dryRun: false,
      edit,
      refuseHighPrices,
    }),
  );
}

/** A refused change is a 400 listing every problem (nothing was written). */
async function refusing<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HighPriceError) throw unconfirmed(error);
    if (!(error instanceof CatalogChangeError)) throw error;
    throw new GatewayError(
      "invalid_request",
      `catalogue change refused: ${error.problems.length} problem(s)`,
      {
        code: "invalid_request",
        metadata: { problems: error.problems },
      },
    );
  }
}

/** Prices above the price-guard thresholds without confirm_high_prices: a 400 naming each and the field. */
function unconfirmed(error: HighPriceError): GatewayError {
  const problems = error.prices.map(highPriceProblem);
  return new GatewayError(
    "invalid_request",
    `catalogue change refused: ${problems.join("; ")}; if these prices are right, send the request again with confirm_high_prices: true`,
    {
      code: "price_confirmation_required",
      metadata: { problems, high_prices: error.prices },
    },
  );
}

function resultView(result: ChangeResult) {
  return {
    applied: result.applied,
    version: result.version,
    version_before: result.versionBefore ?? null,
    diff: result.diff,
    high_prices: result.highPrices,
  };
}

const PRICE_NAMES: ReadonlyArray<[string, keyof Pricing]> = [
  ["prompt", "promptPico"],
  ["completion", "completionPico"],
  ["request", "requestPico"],
  ["image", "imagePico"],
  ["input_cache_read", "cacheReadPico"],
  ["input_cache_write", "cacheWritePico"],
  ["internal_reasoning", "reasoningPico"],
  ["audio", "audioPico"],
];

function pricingFromBody(body: Record<string, string | undefined>): Partial<Pricing> {
  const pricing: Partial<Pricing> = {};
  for (const [name, field] of PRICE_NAMES) {
    const usd = body[name];
    if (usd === undefined) continue;
    try {
      pricing[field] = usdToPico(usd);
    } catch (error) {
      throw new GatewayError("invalid_request", `pricing.${name}: ${(error as Error).message}`, {
        code: "invalid_request",
      });
    }
  }
  return pricing;
}

function modelView(model: Model) {
  return {
    id: model.id,
    name: model.name,
    kind: model.kind,
    context_length: model.contextLength,
    aliases: model.aliases,
    model_limit: model.modelLimit
      ? { requests: model.modelLimit.requests, interval_seconds: model.modelLimit.intervalSeconds }
      : null,
    endpoints: model.endpoints.map((endpoint) => ({
      provider: endpoint.providerId,
      upstream_model: endpoint.upstreamModel,
      context_length: endpoint.contextLength,
      max_completion_tokens: endpoint.maxCompletionTokens,
      pricing: Object.fromEntries(
        PRICE_NAMES.map(([name, field]) => [
          name,
          trimZeros(picoToDecimalString(endpoint.pricing?.[field] ?? 0n)),
        ]),
      ),
      quantization: endpoint.quantization === "" ? null : endpoint.quantization,
      is_zdr: endpoint.isZdr,
      may_train_on_data: endpoint.mayTrainOnData,
      supported_parameters: endpoint.supportedParameters,
      input_modalities: endpoint.inputModalities,
    })),
  };
}

function trimZeros(decimal: string): string {
  return decimal.includes(".") ? decimal.replace(/\.?0+$/, "") : decimal;
}
