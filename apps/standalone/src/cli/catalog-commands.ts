import {
  bundledCatalog,
  type OperatorPrice,
  OperatorPriceError,
  perMillionTokens,
  readOperatorPrices,
  setOperatorPrice,
} from "@gw/keys";
import { picoToDecimalString, usdToPico } from "@gw/money";
import type { AppDatabases } from "../databases.js";

export interface OperatorPriceInput {
  providerId: string;
  /** The provider's name for the model (what a native call sends). */
  model: string;
  /** The catalogue id; default `<provider>/<model>`. */
  modelId?: string | undefined;
  /** USD per million prompt / completion tokens, USD per request. */
  promptUsd: string;
  completionUsd: string;
  requestUsd?: string | undefined;
  contextLength?: number | undefined;
  maxOutput?: number | undefined;
}

export interface OperatorPriceOutput {
  model_id: string;
  provider_id: string;
  upstream_model: string;
  prompt_usd_per_million: string;
  completion_usd_per_million: string;
  request_usd: string;
}

/**
 * `gw catalog price`: prices a model at a provider (a model the catalogue lacks, e.g. a dated OpenAI
 * model the proxy refused as model_not_priced, or a new price for one it lists). Stored in the keys
 * schema and merged into the catalogue, which edges pick up on their next refresh.
 */
export async function catalogPriceCommand(
  databases: AppDatabases,
  input: OperatorPriceInput,
): Promise<OperatorPriceOutput & { catalog_version: string }> {
  const price: OperatorPrice = {
    modelId: input.modelId ?? `${input.providerId}/${input.model}`,
    providerId: input.providerId,
    upstreamModel: input.model,
    promptPico: perMillionTokens(input.promptUsd),
    completionPico: perMillionTokens(input.completionUsd),
    requestPico: requestPrice(input.requestUsd),
    contextLength: input.contextLength,
    maxCompletionTokens: input.maxOutput,
  };
  const { version } = await setOperatorPrice(databases.keys.db, price, bundledCatalog());
  return { ...describePrice(price), catalog_version: version };
}

/** `gw catalog prices`: every price the operator set. */
export async function catalogPricesCommand(databases: AppDatabases): Promise<OperatorPriceOutput[]> {
  return (await readOperatorPrices(databases.keys.db)).map(describePrice);
}

function requestPrice(usd: string | undefined): bigint {
  if (usd === undefined) return 0n;
  try {
    return usdToPico(usd);
  } catch (error) {
    throw new OperatorPriceError(`not a USD amount per request: ${usd} (${(error as Error).message})`);
  }
}

function describePrice(price: OperatorPrice): OperatorPriceOutput {
  return {
    model_id: price.modelId,
    provider_id: price.providerId,
    upstream_model: price.upstreamModel,
    prompt_usd_per_million: trimZeros(picoToDecimalString(price.promptPico * 1_000_000n)),
    completion_usd_per_million: trimZeros(picoToDecimalString(price.completionPico * 1_000_000n)),
    request_usd: trimZeros(picoToDecimalString(price.requestPico)),
  };
}

function trimZeros(decimal: string): string {
  return decimal.replace(/\.?0+$/, "");
}
