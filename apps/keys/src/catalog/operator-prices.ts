import { picoToDecimalString, usdToPico } from "@gw/money";
import type { Endpoint, Model } from "@gw/proto/catalog/v1/catalog";
import type { Kysely, Selectable } from "kysely";
import type { KeysTables, OperatorPricesTable } from "../db/schema.js";
import type { CatalogContent } from "./content.js";
import { seedCatalog } from "./seed.js";

/**
 * A price the operator set for a model at a provider (`gw catalog price`): the catalogue gains the
 * model (or, for a model it lists, this provider's endpoint, replacing a bundled price there), so the
 * proxy and every surface serve it and bill it at this price instead of refusing it as unpriced.
 */
export interface OperatorPrice {
  /** The catalogue id, `<author>/<slug>`. */
  modelId: string;
  providerId: string;
  /** The name the provider knows the model by (what native calls send). */
  upstreamModel: string;
  /** Pico-dollars per prompt token, per completion token and per request. */
  promptPico: bigint;
  completionPico: bigint;
  requestPico: bigint;
  /** Undefined: the endpoint's own when the catalogue lists one, else the defaults below. */
  contextLength?: number | undefined;
  maxCompletionTokens?: number | undefined;
}

/** What a model the catalogue does not list gets unless the operator says otherwise. */
export const OPERATOR_MODEL_DEFAULTS = { contextLength: 128_000, maxCompletionTokens: 16_384 } as const;

const MODEL_ID = /^[a-z0-9][a-z0-9._-]*\/[\x21-\x7e]{1,200}$/;
const UPSTREAM_MODEL = /^[\x21-\x7e]{1,256}$/;

export class OperatorPriceError extends Error {}

/** A USD price per million tokens as pico-dollars per token; finer than a pico per token is refused. */
export function perMillionTokens(usdPerMillion: string): bigint {
  const pico = usdToPico(usdPerMillion);
  if (pico < 0n || pico % 1_000_000n !== 0n) {
    throw new OperatorPriceError(
      `not a price per million tokens in whole pico-dollars per token: ${usdPerMillion}`,
    );
  }
  return pico / 1_000_000n;
}

/** The content with every operator price applied: a model added, or its endpoint at the provider set. */
export function withOperatorPrices(
  content: CatalogContent,
  prices: readonly OperatorPrice[],
): CatalogContent {
  if (prices.length === 0) return content;
  const models = content.models.map((model) => ({ ...model, endpoints: [...model.endpoints] }));
  for (const price of prices) {
    let model = models.find((candidate) => candidate.id === price.modelId);
    if (!model) {
      model = newModel(price);
      models.push(model);
    }
    const at = model.endpoints.findIndex((endpoint) => endpoint.providerId === price.providerId);
    const endpoint = operatorEndpoint(price, model.endpoints[at]);
    if (at === -1) model.endpoints.push(endpoint);
    else model.endpoints[at] = endpoint;
  }
  // No version of its own: the merged content's digest is its version, so every price change moves it.
  return { providers: content.providers, models };
}

function newModel(price: OperatorPrice): Model {
  return {
    id: price.modelId,
    name: price.modelId,
    author: price.modelId.slice(0, price.modelId.indexOf("/")),
    kind: "chat",
    createdUnix: 0n,
    contextLength: price.contextLength ?? OPERATOR_MODEL_DEFAULTS.contextLength,
    isFree: false,
    endpoints: [],
    modelLimit: undefined,
  };
}

function operatorEndpoint(price: OperatorPrice, listed: Endpoint | undefined): Endpoint {
  return {
    providerId: price.providerId,
    upstreamModel: price.upstreamModel,
    contextLength: price.contextLength ?? listed?.contextLength ?? OPERATOR_MODEL_DEFAULTS.contextLength,
    maxCompletionTokens:
      price.maxCompletionTokens ?? listed?.maxCompletionTokens ?? OPERATOR_MODEL_DEFAULTS.maxCompletionTokens,
    pricing: {
      promptPico: price.promptPico,
      completionPico: price.completionPico,
      requestPico: price.requestPico,
      imagePico: 0n,
      cacheReadPico: 0n,
      cacheWritePico: 0n,
      reasoningPico: 0n,
    },
    quantization: listed?.quantization ?? "",
    isZdr: listed?.isZdr ?? false,
    supportedParameters: listed ? [...listed.supportedParameters] : [],
  };
}

export async function readOperatorPrices(db: Kysely<KeysTables>): Promise<OperatorPrice[]> {
  const rows = await db
    .selectFrom("operator_prices")
    .selectAll()
    .orderBy("model_id")
    .orderBy("provider_id")
    .execute();
  return rows.map(fromRow);
}

function fromRow(row: Selectable<OperatorPricesTable>): OperatorPrice {
  return {
    modelId: row.model_id,
    providerId: row.provider_id,
    upstreamModel: row.upstream_model,
    promptPico: usdToPico(row.prompt_price),
    completionPico: usdToPico(row.completion_price),
    requestPico: usdToPico(row.request_price),
    contextLength: row.context_length ?? undefined,
    maxCompletionTokens: row.max_completion_tokens ?? undefined,
  };
}

/**
 * Stores the price and re-seeds the catalogue (`base` plus every operator price) in the tables the
 * keys app serves, so each edge picks it up on its next catalogue refresh (CATALOG_REFRESH_MS).
 */
export async function setOperatorPrice(
  db: Kysely<KeysTables>,
  price: OperatorPrice,
  base: CatalogContent,
): Promise<{ version: string }> {
  checkPrice(price, base);
  const row = {
    model_id: price.modelId,
    provider_id: price.providerId,
    upstream_model: price.upstreamModel,
    prompt_price: picoToDecimalString(price.promptPico),
    completion_price: picoToDecimalString(price.completionPico),
    request_price: picoToDecimalString(price.requestPico),
    context_length: price.contextLength ?? null,
    max_completion_tokens: price.maxCompletionTokens ?? null,
  };
  await db
    .insertInto("operator_prices")
    .values(row)
    .onConflict((conflict) =>
      conflict.columns(["model_id", "provider_id"]).doUpdateSet({ ...row, updated_at: new Date() }),
    )
    .execute();
  const seeded = await seedCatalog(db, withOperatorPrices(base, await readOperatorPrices(db)));
  return { version: seeded.version };
}

function checkPrice(price: OperatorPrice, base: CatalogContent): void {
  if (!base.providers.some((provider) => provider.id === price.providerId)) {
    throw new OperatorPriceError(`unknown provider: ${price.providerId}`);
  }
  if (!MODEL_ID.test(price.modelId)) {
    throw new OperatorPriceError(
      `model id must be <author>/<slug> in printable characters: ${price.modelId}`,
    );
  }
  if (!UPSTREAM_MODEL.test(price.upstreamModel)) {
    throw new OperatorPriceError(`upstream model must be 1-256 printable characters: ${price.upstreamModel}`);
  }
  const prices = [price.promptPico, price.completionPico, price.requestPico];
  if (prices.some((pico) => pico < 0n)) throw new OperatorPriceError("prices must not be negative");
  // An all-zero price is exactly the unbilled serving the price exists to prevent.
  if (prices.every((pico) => pico === 0n)) {
    throw new OperatorPriceError("at least one of the prompt, completion or request price must be above 0");
  }
  for (const [name, value] of [
    ["context length", price.contextLength],
    ["max completion tokens", price.maxCompletionTokens],
  ] as const) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 1 || value > 10_000_000)) {
      throw new OperatorPriceError(`${name} must be a whole number from 1 to 10,000,000: ${value}`);
    }
  }
}
