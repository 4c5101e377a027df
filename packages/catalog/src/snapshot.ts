import type {
  Endpoint as EndpointMessage,
  GetSnapshotResponse,
  Model as ModelMessage,
  Provider as ProviderMessage,
} from "@gw/proto/catalog/v1/catalog";
import { CATALOG } from "./catalog.js";
import { endpointInputModalities } from "./modalities.js";
import { PROVIDERS } from "./providers.js";
import type {
  ApiFormat,
  CatalogData,
  Endpoint,
  Model,
  ModelKind,
  ProviderInfo,
  Quantization,
} from "./types.js";
import { QUANTIZATIONS } from "./types.js";
import { catalogVersion } from "./version.js";

export interface SnapshotOptions {
  readonly data?: CatalogData;
  /** The version the caller already holds; when it is current the answer carries no data. */
  readonly knownVersion?: string;
}

/** The `CatalogService.GetSnapshot` answer for a catalogue. */
export function toCatalogSnapshot(options: SnapshotOptions = {}): GetSnapshotResponse {
  const data = options.data ?? CATALOG;
  const version = catalogVersion(data);
  if (options.knownVersion === version) return { version, notModified: true, providers: [], models: [] };
  return {
    version,
    notModified: false,
    providers: data.providers.map(providerMessage),
    models: data.models.map(modelMessage),
  };
}

function providerMessage(p: ProviderInfo): ProviderMessage {
  return { id: p.id, name: p.name, apiFormat: p.apiFormat, isDemo: p.isDemo };
}

function modelMessage(m: Model): ModelMessage {
  return {
    id: m.id,
    name: m.name,
    author: m.author,
    kind: m.kind,
    createdUnix: m.createdUnix,
    contextLength: m.contextLength,
    isFree: m.isFree,
    endpoints: m.endpoints.map(endpointMessage),
    modelLimit: m.modelLimit ? { ...m.modelLimit } : undefined,
    aliases: [...m.aliases],
  };
}

function endpointMessage(e: Endpoint): EndpointMessage {
  return {
    providerId: e.providerId,
    upstreamModel: e.upstreamModel,
    contextLength: e.contextLength,
    maxCompletionTokens: e.maxCompletionTokens,
    pricing: { ...e.pricing },
    // Proto strings have no null: "" stands for "not published".
    quantization: e.quantization ?? "",
    isZdr: e.isZdr,
    supportedParameters: [...e.supportedParameters],
    mayTrainOnData: e.mayTrainOnData,
    inputModalities: [...e.inputModalities],
  };
}

/**
 * Rebuilds catalogue data from a snapshot received over gRPC, so holders of a snapshot use the same lookups.
 * Connection settings (env prefix, base URL, key requirement, OpenAI dialect) are not on the wire: they come from
 * the bundled provider list, with conservative defaults for a provider this build does not know.
 */
export function fromCatalogSnapshot(snapshot: GetSnapshotResponse): CatalogData {
  return {
    providers: snapshot.providers.map((p) => {
      const local = PROVIDERS.find((known) => known.id === p.id);
      return {
        id: p.id,
        name: p.name,
        apiFormat: asApiFormat(p.apiFormat),
        isDemo: p.isDemo,
        envPrefix: local?.envPrefix ?? p.id.toUpperCase().replace(/[^A-Z0-9]/g, "_"),
        defaultBaseUrl: local?.defaultBaseUrl ?? null,
        requiresKey: local?.requiresKey ?? true,
        ...(local?.openAiDialect ? { openAiDialect: local.openAiDialect } : {}),
      };
    }),
    models: snapshot.models.map((m) => ({
      id: m.id,
      name: m.name,
      author: m.author,
      kind: asKind(m.kind),
      createdUnix: m.createdUnix,
      contextLength: m.contextLength,
      isFree: m.isFree,
      endpoints: m.endpoints.map((e) => ({
        providerId: e.providerId,
        upstreamModel: e.upstreamModel,
        contextLength: e.contextLength,
        maxCompletionTokens: e.maxCompletionTokens,
        pricing: {
          promptPico: e.pricing?.promptPico ?? 0n,
          completionPico: e.pricing?.completionPico ?? 0n,
          requestPico: e.pricing?.requestPico ?? 0n,
          imagePico: e.pricing?.imagePico ?? 0n,
          cacheReadPico: e.pricing?.cacheReadPico ?? 0n,
          cacheWritePico: e.pricing?.cacheWritePico ?? 0n,
          reasoningPico: e.pricing?.reasoningPico ?? 0n,
          audioPico: e.pricing?.audioPico ?? 0n,
          audioOutputPico: e.pricing?.audioOutputPico ?? 0n,
        },
        quantization: asQuantization(e.quantization),
        isZdr: e.isZdr,
        supportedParameters: [...e.supportedParameters],
        mayTrainOnData: e.mayTrainOnData,
        inputModalities: endpointInputModalities(e),
      })),
      modelLimit: m.modelLimit ? { ...m.modelLimit } : null,
      aliases: [...m.aliases],
    })),
  };
}

const API_FORMATS: ReadonlySet<string> = new Set<ApiFormat>([
  "openai",
  "anthropic",
  "gemini",
  "bedrock",
  "vertex",
  "azure",
]);

function asApiFormat(value: string): ApiFormat {
  if (API_FORMATS.has(value)) return value as ApiFormat;
  throw new RangeError(`unknown api_format in catalogue snapshot: ${value}`);
}

function asKind(value: string): ModelKind {
  if (value === "chat" || value === "embedding") return value;
  throw new RangeError(`unknown model kind in catalogue snapshot: ${value}`);
}

function asQuantization(value: string): Quantization | null {
  return QUANTIZATIONS.find((q) => q === value) ?? null;
}
