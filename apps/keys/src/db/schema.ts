import type { ColumnType, Generated } from "kysely";

/** timestamptz: read as Date, written as Date or an ISO string. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DefaultedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** numeric(38,12) USD: pg returns the exact decimal text; written from @gw/money's decimal strings. */
type Usd = ColumnType<string, string, string>;

export type KeyTypeColumn = "management" | "regular";
export type LimitResetColumn = "daily" | "weekly" | "monthly";

export interface AccountsTable {
  id: string;
  name: string;
  /** The tenant's scope: null = every provider/model; a key can only narrow it. */
  allowed_providers: string[] | null;
  allowed_models: string[] | null;
  created_at: DefaultedTimestamp;
}

export interface ApiKeysTable {
  /** sha256 hex of the secret; the secret itself is never stored. */
  hash: string;
  account_id: string;
  key_type: KeyTypeColumn;
  name: string;
  label: string;
  disabled: Generated<boolean>;
  limit: Usd | null;
  limit_reset: LimitResetColumn | null;
  allowed_providers: string[] | null;
  allowed_models: string[] | null;
  include_byok_in_limit: Generated<boolean>;
  expires_at: Timestamp | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  deleted_at: Timestamp | null;
  /** Hash of the management key that created this key; null when an operator created it. */
  created_by: string | null;
  /** A wallet's implicit key only (null otherwise): wallet JWTs below this version are revoked. */
  wallet_token_version: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface ProvidersTable {
  id: string;
  name: string;
  api_format: string;
  is_demo: boolean;
  position: number;
}

export interface ModelsTable {
  id: string;
  name: string;
  author: string;
  kind: string;
  created_unix: ColumnType<bigint, bigint, bigint>;
  context_length: number;
  is_free: boolean;
  limit_requests: number | null;
  limit_interval_seconds: number | null;
  position: number;
  aliases: ColumnType<string[], string[] | undefined, string[]>;
}

export interface ModelEndpointsTable {
  model_id: string;
  provider_id: string;
  upstream_model: string;
  context_length: number;
  max_completion_tokens: number;
  prompt_price: Usd;
  completion_price: Usd;
  request_price: Usd;
  image_price: Usd;
  cache_read_price: Usd;
  cache_write_price: Usd;
  reasoning_price: Usd;
  /** Per input audio token; 0 = at the prompt price. */
  audio_price: ColumnType<string, string | undefined, string>;
  audio_output_price: ColumnType<string, string | undefined, string>;
  quantization: string | null;
  is_zdr: boolean;
  supported_parameters: string[];
  may_train_on_data: ColumnType<boolean, boolean | undefined, boolean>;
  /** text, image, file, audio (OpenRouter's input_modalities names). */
  input_modalities: ColumnType<string[], string[] | undefined, string[]>;
  position: number;
}

/** An operator's patch over the seeded catalogue (apps/keys/src/catalog/overlay.ts), kept as JSON. */
export interface CatalogModelOverridesTable {
  model_id: string;
  patch: ColumnType<unknown, string, string>;
  updated_by: string;
  updated_at: DefaultedTimestamp;
}

export interface CatalogEndpointOverridesTable {
  model_id: string;
  provider_id: string;
  patch: ColumnType<unknown, string, string>;
  updated_by: string;
  updated_at: DefaultedTimestamp;
}

export interface CatalogAliasesTable {
  alias: string;
  model_id: string;
  updated_by: string;
  updated_at: DefaultedTimestamp;
}

export interface CatalogChangesTable {
  /** bigserial: read as a bigint (packages/db parses int8 so). */
  id: Generated<bigint>;
  at: DefaultedTimestamp;
  actor: string;
  action: string;
  diff: ColumnType<unknown, string, string>;
  version_before: string | null;
  version_after: string;
}

export interface OperatorTokensTable {
  id: string;
  name: string;
  /** SHA-256 hex of the secret; the secret itself is shown once and never stored. */
  hash: string;
  created_at: DefaultedTimestamp;
  revoked_at: Timestamp | null;
}

export interface CatalogMetaTable {
  id: Generated<number>;
  version: string;
  updated_at: DefaultedTimestamp;
}

export interface ProviderCredentialsTable {
  id: string;
  account_id: string;
  provider_id: string;
  name: string;
  /** Masked provider key, the only form ever shown. */
  label: string;
  /** AES-256-GCM under BYOK_MASTER_KEY, with account and provider as associated data. */
  iv: Buffer;
  /** The master key that sealed it (byok/cipher.ts keyIdOf); null = sealed before ids were stored. */
  key_id: string | null;
  auth_tag: Buffer;
  ciphertext: Buffer;
  position: number;
  /** A disabled credential is kept but never handed to an edge. */
  disabled: Generated<boolean>;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export type WalletNamespace = "eip155" | "solana";

export interface WalletAccountsTable {
  namespace: WalletNamespace;
  /** EIP-55 checksummed (EVM) or base58 public key (Solana). */
  address: string;
  account_id: string;
  /** The implicit key through which the wallet's usage is attributed. */
  key_hash: string;
  created_at: DefaultedTimestamp;
  /** The wallet's last sign-in or payment: the account sweep leaves a wallet seen recently alone. */
  last_seen_at: DefaultedTimestamp;
}

/** New accounts per (scope, subject) in one fixed window: the account-creation limit's counters. */
export interface AccountCreationWindowsTable {
  /** `address` (subject = the client address) or `global` (subject = ''). */
  scope: "address" | "global";
  subject: string;
  window_start: Date;
  created: number;
}

export interface SiwxNoncesTable {
  namespace: WalletNamespace;
  address: string;
  nonce: string;
  expires_at: Timestamp;
}

export interface KeysTables {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  providers: ProvidersTable;
  models: ModelsTable;
  model_endpoints: ModelEndpointsTable;
  catalog_meta: CatalogMetaTable;
  catalog_model_overrides: CatalogModelOverridesTable;
  catalog_endpoint_overrides: CatalogEndpointOverridesTable;
  catalog_aliases: CatalogAliasesTable;
  catalog_changes: CatalogChangesTable;
  operator_tokens: OperatorTokensTable;
  provider_credentials: ProviderCredentialsTable;
  wallet_accounts: WalletAccountsTable;
  account_creation_windows: AccountCreationWindowsTable;
  siwx_nonces: SiwxNoncesTable;
}
