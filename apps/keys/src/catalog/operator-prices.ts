import { usdToPico } from "@gw/money";
import type { Kysely } from "kysely";
import type { KeysTables } from "../db/schema.js";
import type { CatalogContent } from "./content.js";
import { setPrice } from "./operations.js";
import { splitEndpointKey } from "./overlay.js";
import { CatalogChangeError, changeCatalog, readOverlay } from "./store.js";

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
export { NEW_ENDPOINT_DEFAULTS as OPERATOR_MODEL_DEFAULTS } from "./overlay.js";

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

/** Every endpoint the operator priced (an endpoint override with a price), by model then provider. */
export async function readOperatorPrices(db: Kysely<KeysTables>): Promise<OperatorPrice[]> {
  const overlay = await readOverlay(db);
  const prices: OperatorPrice[] = [];
  for (const [key, patch] of overlay.endpoints) {
    if (!patch.pricing) continue;
    const { modelId, providerId } = splitEndpointKey(key);
    prices.push({
      modelId,
      providerId,
      upstreamModel: patch.upstreamModel ?? modelId.slice(modelId.indexOf("/") + 1),
      promptPico: patch.pricing.promptPico ?? 0n,
      completionPico: patch.pricing.completionPico ?? 0n,
      requestPico: patch.pricing.requestPico ?? 0n,
      contextLength: patch.contextLength,
      maxCompletionTokens: patch.maxCompletionTokens,
    });
  }
  return prices;
}

/**
 * Sets the price as an operator override (see overlay.ts) and rewrites the served catalogue, so each
 * edge picks it up on its next catalogue refresh (CATALOG_REFRESH_MS). The history names `actor`.
 */
export async function setOperatorPrice(
  db: Kysely<KeysTables>,
  price: OperatorPrice,
  base: CatalogContent,
  actor = "cli",
): Promise<{ version: string }> {
  const prices = [price.promptPico, price.completionPico, price.requestPico];
  // An all-zero price is exactly the unbilled serving the price exists to prevent.
  if (prices.every((pico) => pico === 0n) && !price.modelId.endsWith(":free")) {
    throw new OperatorPriceError("at least one of the prompt, completion or request price must be above 0");
  }
  try {
    const result = await changeCatalog(db, base, {
      actor,
      action: "set-price",
      dryRun: false,
      edit: setPrice({
        modelId: price.modelId,
        providerId: price.providerId,
        upstreamModel: price.upstreamModel,
        pricing: {
          promptPico: price.promptPico,
          completionPico: price.completionPico,
          requestPico: price.requestPico,
        },
        contextLength: price.contextLength,
        maxCompletionTokens: price.maxCompletionTokens,
      }),
    });
    return { version: result.version };
  } catch (error) {
    if (error instanceof CatalogChangeError) throw new OperatorPriceError(error.problems.join("; "));
    throw error;
  }
}
