import { picoToDecimalString, usdToPico } from "@gw/money";
import type { Endpoint, Model, Pricing, Provider } from "@gw/proto/catalog/v1/catalog";
import type { Insertable, Selectable } from "kysely";
import type { ModelEndpointsTable, ModelsTable, ProvidersTable } from "../db/schema.js";

// Mapping between the wire shape (prices in pico-dollars) and the tables (numeric USD per token).

export function providerRow(provider: Provider, position: number): Insertable<ProvidersTable> {
  return {
    id: provider.id,
    name: provider.name,
    api_format: provider.apiFormat,
    is_demo: provider.isDemo,
    position,
  };
}

export function modelRow(model: Model, position: number): Insertable<ModelsTable> {
  return {
    id: model.id,
    name: model.name,
    author: model.author,
    kind: model.kind,
    created_unix: model.createdUnix,
    context_length: model.contextLength,
    is_free: model.isFree,
    limit_requests: model.modelLimit?.requests ?? null,
    limit_interval_seconds: model.modelLimit?.intervalSeconds ?? null,
    aliases: [...model.aliases],
    position,
  };
}

export function endpointRows(model: Model): Insertable<ModelEndpointsTable>[] {
  return model.endpoints.map((endpoint, position) => {
    const pricing = endpoint.pricing;
    return {
      model_id: model.id,
      provider_id: endpoint.providerId,
      upstream_model: endpoint.upstreamModel,
      context_length: endpoint.contextLength,
      max_completion_tokens: endpoint.maxCompletionTokens,
      prompt_price: usd(pricing?.promptPico),
      completion_price: usd(pricing?.completionPico),
      request_price: usd(pricing?.requestPico),
      image_price: usd(pricing?.imagePico),
      cache_read_price: usd(pricing?.cacheReadPico),
      cache_write_price: usd(pricing?.cacheWritePico),
      reasoning_price: usd(pricing?.reasoningPico),
      audio_price: usd(pricing?.audioPico),
      audio_output_price: usd(pricing?.audioOutputPico),
      // The wire has no null string: "" there means the provider publishes no quantization.
      quantization: endpoint.quantization === "" ? null : endpoint.quantization,
      is_zdr: endpoint.isZdr,
      supported_parameters: [...endpoint.supportedParameters],
      may_train_on_data: endpoint.mayTrainOnData,
      input_modalities: [...endpoint.inputModalities],
      position,
    };
  });
}

function usd(pico: bigint | undefined): string {
  return picoToDecimalString(pico ?? 0n);
}

export function providerFromRow(row: Selectable<ProvidersTable>): Provider {
  return { id: row.id, name: row.name, apiFormat: row.api_format, isDemo: row.is_demo };
}

export function modelFromRow(row: Selectable<ModelsTable>, endpoints: Endpoint[]): Model {
  const model: Model = {
    id: row.id,
    name: row.name,
    author: row.author,
    kind: row.kind,
    createdUnix: row.created_unix,
    contextLength: row.context_length,
    isFree: row.is_free,
    endpoints,
    aliases: row.aliases,
  };
  if (row.limit_requests !== null && row.limit_interval_seconds !== null) {
    model.modelLimit = { requests: row.limit_requests, intervalSeconds: row.limit_interval_seconds };
  }
  return model;
}

export function endpointFromRow(row: Selectable<ModelEndpointsTable>): Endpoint {
  return {
    providerId: row.provider_id,
    upstreamModel: row.upstream_model,
    contextLength: row.context_length,
    maxCompletionTokens: row.max_completion_tokens,
    pricing: pricingFromRow(row),
    quantization: row.quantization ?? "",
    isZdr: row.is_zdr,
    supportedParameters: row.supported_parameters,
    mayTrainOnData: row.may_train_on_data,
    inputModalities: row.input_modalities,
  };
}

function pricingFromRow(row: Selectable<ModelEndpointsTable>): Pricing {
  return {
    promptPico: usdToPico(row.prompt_price),
    completionPico: usdToPico(row.completion_price),
    requestPico: usdToPico(row.request_price),
    imagePico: usdToPico(row.image_price),
    cacheReadPico: usdToPico(row.cache_read_price),
    cacheWritePico: usdToPico(row.cache_write_price),
    reasoningPico: usdToPico(row.reasoning_price),
    audioPico: usdToPico(row.audio_price),
    audioOutputPico: usdToPico(row.audio_output_price),
  };
}
