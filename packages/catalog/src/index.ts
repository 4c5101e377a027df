export type { AzureDeployments } from "./azure-deployments.js";
export { isAzureDeployment, parseAzureDeployments } from "./azure-deployments.js";
export type { CatalogIndex, ResolvedModel } from "./catalog.js";
export { CATALOG, findModel, findProvider, indexCatalog, resolveModel } from "./catalog.js";
export { endpointInputModalities, inputModalitiesOf, modelInputModalities } from "./modalities.js";
export type { ModelFilters, ParsedFilters } from "./model-filters.js";
export { filterModels, MODEL_CATEGORIES, parseModelFilters } from "./model-filters.js";
export type {
  ModelArchitecture,
  OpenRouterModel,
  OpenRouterModelList,
  PriceStrings,
} from "./model-object.js";
export { modelList, openRouterModel, priceString, priceStrings } from "./model-object.js";
export { MODELS } from "./models/index.js";
export type { ListPrice } from "./pricing.js";
export { listPrice } from "./pricing.js";
export { PROVIDERS, providerEnvVars } from "./providers.js";
export type { SnapshotOptions } from "./snapshot.js";
export { fromCatalogSnapshot, toCatalogSnapshot } from "./snapshot.js";
export type {
  ApiFormat,
  CatalogData,
  Endpoint,
  InputModality,
  Model,
  ModelKind,
  ModelVariant,
  OpenAiDialect,
  Pricing,
  ProviderInfo,
  Quantization,
  RequestLimit,
} from "./types.js";
export { INPUT_MODALITIES, QUANTIZATIONS } from "./types.js";
export { validateCatalog } from "./validate.js";
export type { ParsedModelId } from "./variants.js";
export { parseModelId } from "./variants.js";
export { canonicalJson, catalogVersion } from "./version.js";
export { NATIVE_WEB_SEARCH_PARAMETER, nativeWebSearchPerAnswer, nativeWebSearchPico } from "./web-search.js";
