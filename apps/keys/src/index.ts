export { createApp } from "./app.js";
export type { CatalogListing, ImportRequest, ImportResult } from "./catalog/admin.js";
export { importCatalog, listCatalog } from "./catalog/admin.js";
export type { CatalogContent } from "./catalog/content.js";
export { bundledCatalog } from "./catalog/content.js";
export type { CloudDeclarations } from "./catalog/declared.js";
export { cloudDeclarations, cloudDeclarationsEnv, withCloudDeclarations } from "./catalog/declared.js";
export type { DiffEntry } from "./catalog/diff.js";
export type { EndpointHealthSource } from "./catalog/endpoint-health.js";
export { connectEndpointHealth, EndpointHealthView } from "./catalog/endpoint-health.js";
export { endpointSchema, modelSchema } from "./catalog/openapi-schemas.js";
export { setAlias, setDisabled, setPrice } from "./catalog/operations.js";
export type { OperatorPrice } from "./catalog/operator-prices.js";
export {
  OperatorPriceError,
  perMillionTokens,
  readOperatorPrices,
  setOperatorPrice,
} from "./catalog/operator-prices.js";
export { seedCatalog } from "./catalog/seed.js";
export type { CatalogChange, ChangeResult } from "./catalog/store.js";
export { CatalogChangeError, changeCatalog, readCatalogChanges } from "./catalog/store.js";
export type { KeysConfig } from "./config.js";
export { loadKeysConfig } from "./config.js";
export type { KeysTables } from "./db/index.js";
export { migrations, SCHEMA } from "./db/index.js";
export type { KeysContext, KeysDeps } from "./deps.js";
export { createGrpcServer, KEYS_CALLERS } from "./grpc.js";
export {
  type AccountLifecycle,
  accountLifecycleEnv,
  accountLifecycleFrom,
  DEFAULT_ACCOUNT_LIFECYCLE,
} from "./identity/accounts/lifecycle.js";
export { authenticateKey } from "./identity/keys/authenticate.js";
export { createdKeySchema, credentialSchema, keySchema } from "./identity/openapi-schemas.js";
export type {
  AccountScopeInput,
  ChangeFeed,
  CreatedAccount,
  ManagementKeySummary,
  OperatorKeyInput,
} from "./identity/operator.js";
export {
  createAccount,
  createApiKey,
  listAccountManagementKeys,
  revokeAccountManagementKey,
  rotateAccountManagementKey,
  setAccountScope,
} from "./identity/operator.js";
export {
  createOperatorToken,
  listOperatorTokens,
  revokeOperatorToken,
} from "./identity/operators/tokens.js";
export type { UsageSource } from "./identity/usage/billing.js";
export { connectBillingUsage } from "./identity/usage/billing.js";
export { revokeWalletTokens } from "./identity/wallets/revoke.js";
export type { WalletAuthSettings } from "./identity/wallets/sign-in.js";
export { keysOpenApiPaths } from "./openapi/index.js";
export type { ListenOptions, RunningKeys } from "./start.js";
export { startKeys } from "./start.js";
