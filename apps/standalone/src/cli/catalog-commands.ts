import { userInfo } from "node:os";
import {
  bundledCatalog,
  CatalogChangeError,
  type ChangeResult,
  changeCatalog,
  createOperatorToken,
  type DiffEntry,
  importCatalog,
  listCatalog,
  listOperatorTokens,
  type OperatorPrice,
  OperatorPriceError,
  perMillionTokens,
  readCatalogChanges,
  readOperatorPrices,
  revokeOperatorToken,
  setAlias,
  setDisabled,
  setOperatorPrice,
  setPrice,
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
  const { version } = await setOperatorPrice(databases.keys.db, price, bundledCatalog(), cliActor());
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

// The catalogue as data (issue 14): the operator CLI works on the keys schema directly, under the same
// lock, checks and history as the admin routes; the history names `cli:<os user>`.

/** The history's "who" for the CLI: the OS account running it (no passwd entry in a container: unknown). */
function cliActor(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return "cli:unknown";
  }
}

/** A refused change: every problem on its own line, nothing written. */
export class CatalogRefused extends Error {}

async function refusing<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof CatalogChangeError) {
      throw new CatalogRefused(
        `catalogue change refused, nothing written:\n  ${error.problems.join("\n  ")}`,
      );
    }
    throw error;
  }
}

/** One line per field that moved: `target field: old -> new`. */
export function diffLines(diff: readonly DiffEntry[]): string[] {
  return diff.map((entry) => `${entry.target} ${entry.field}: ${show(entry.old)} -> ${show(entry.new)}`);
}

function show(value: unknown): string {
  return value === null ? "(none)" : typeof value === "string" ? value : JSON.stringify(value);
}

function changeOutput(result: ChangeResult) {
  return {
    applied: result.applied,
    catalog_version: result.version,
    previous_version: result.versionBefore ?? null,
    changes: diffLines(result.diff),
  };
}

export interface ImportInput {
  format: string;
  text: string;
  apply: boolean;
  skipUnknownProviders: boolean;
  providerId?: string | undefined;
}

/** `gw catalog import`: a dry run printing the diff unless `--apply`. */
export async function catalogImportCommand(databases: AppDatabases, input: ImportInput) {
  const result = await refusing(() =>
    importCatalog(databases.keys.db, bundledCatalog(), {
      format: input.format,
      text: input.text,
      apply: input.apply,
      actor: cliActor(),
      skipUnknownProviders: input.skipUnknownProviders,
      providerId: input.providerId,
    }),
  );
  return {
    ...changeOutput(result),
    dry_run: !input.apply,
    models_in_file: result.models,
    skipped: result.skipped,
  };
}

/** `gw catalog list`: every served model, its endpoints and prices (USD per million tokens). */
export async function catalogListCommand(databases: AppDatabases) {
  const listing = await listCatalog(databases.keys.db);
  return {
    catalog_version: listing.version ?? null,
    models: listing.content.models.map((model) => ({
      id: model.id,
      kind: model.kind,
      aliases: model.aliases,
      ...(model.modelLimit ? { model_limit: model.modelLimit } : {}),
      endpoints: model.endpoints.map((endpoint) => ({
        provider: endpoint.providerId,
        upstream: endpoint.upstreamModel,
        context: endpoint.contextLength,
        prompt_usd_per_million: perMillion(endpoint.pricing?.promptPico),
        completion_usd_per_million: perMillion(endpoint.pricing?.completionPico),
        cache_read_usd_per_million: perMillion(endpoint.pricing?.cacheReadPico),
        cache_write_usd_per_million: perMillion(endpoint.pricing?.cacheWritePico),
      })),
    })),
    disabled: listing.disabled.map((entry) => ({ model: entry.modelId, provider: entry.providerId })),
  };
}

function perMillion(pico: bigint | undefined): string {
  return trimZeros(picoToDecimalString((pico ?? 0n) * 1_000_000n));
}

export interface SetPriceInput {
  modelId: string;
  providerId: string;
  /** USD per million tokens, for the token prices; USD per unit for request and image. */
  perMillion: Partial<Record<"prompt" | "completion" | "cacheRead" | "cacheWrite" | "reasoning", string>>;
  perUnit: Partial<Record<"request" | "image", string>>;
  upstreamModel?: string | undefined;
  contextLength?: number | undefined;
  maxOutput?: number | undefined;
}

const PER_MILLION_FIELDS = {
  prompt: "promptPico",
  completion: "completionPico",
  cacheRead: "cacheReadPico",
  cacheWrite: "cacheWritePico",
  reasoning: "reasoningPico",
} as const;

/** `gw catalog set-price`: only the prices named change. */
export async function catalogSetPriceCommand(databases: AppDatabases, input: SetPriceInput) {
  const pricing: Partial<
    Record<(typeof PER_MILLION_FIELDS)[keyof typeof PER_MILLION_FIELDS] | "requestPico" | "imagePico", bigint>
  > = {};
  for (const [name, field] of Object.entries(PER_MILLION_FIELDS)) {
    const usd = input.perMillion[name as keyof typeof PER_MILLION_FIELDS];
    if (usd !== undefined) pricing[field] = perMillionTokens(usd);
  }
  if (input.perUnit.request !== undefined) pricing.requestPico = requestPrice(input.perUnit.request);
  if (input.perUnit.image !== undefined) pricing.imagePico = requestPrice(input.perUnit.image);
  if (Object.keys(pricing).length === 0) throw new OperatorPriceError("name at least one price to set");
  const edit = setPrice({
    modelId: input.modelId,
    providerId: input.providerId,
    pricing,
    upstreamModel: input.upstreamModel,
    contextLength: input.contextLength,
    maxCompletionTokens: input.maxOutput,
  });
  const result = await refusing(() =>
    changeCatalog(databases.keys.db, bundledCatalog(), {
      actor: cliActor(),
      action: "set-price",
      dryRun: false,
      edit,
    }),
  );
  return changeOutput(result);
}

/** `gw catalog disable` / `gw catalog enable`: a model, or one of its endpoints with --provider. */
export async function catalogDisableCommand(
  databases: AppDatabases,
  input: { modelId: string; providerId?: string | undefined; disabled: boolean },
) {
  const edit = setDisabled({
    modelId: input.modelId,
    providerId: input.providerId,
    disabled: input.disabled,
  });
  const action = input.disabled ? "disable" : "enable";
  const result = await refusing(() =>
    changeCatalog(databases.keys.db, bundledCatalog(), { actor: cliActor(), action, dryRun: false, edit }),
  );
  return changeOutput(result);
}

/** `gw catalog alias`: points an alias at a model, or removes an operator alias. */
export async function catalogAliasCommand(
  databases: AppDatabases,
  input: { alias: string; modelId: string | null },
) {
  const edit = setAlias(input.alias, input.modelId);
  const result = await refusing(() =>
    changeCatalog(databases.keys.db, bundledCatalog(), {
      actor: cliActor(),
      action: "alias",
      dryRun: false,
      edit,
    }),
  );
  return changeOutput(result);
}

/** `gw catalog changes`: the history, newest first. */
export async function catalogChangesCommand(databases: AppDatabases) {
  return (await readCatalogChanges(databases.keys.db, 50)).map((change) => ({
    at: change.at.toISOString(),
    actor: change.actor,
    action: change.action,
    version: change.versionAfter,
    changes: diffLines(change.diff),
  }));
}

/** `gw operator-token create`: the secret is printed once; only its SHA-256 is stored. */
export async function operatorTokenCreateCommand(databases: AppDatabases, name: string) {
  const created = await createOperatorToken(databases.keys.db, name);
  return {
    id: created.id,
    name: created.name,
    token: created.token,
    note: "shown once: send it as Authorization: Bearer on /api/v1/admin/catalog/...",
  };
}

export async function operatorTokenRevokeCommand(databases: AppDatabases, idOrName: string) {
  return { revoked: await revokeOperatorToken(databases.keys.db, idOrName) };
}

export async function operatorTokenListCommand(databases: AppDatabases) {
  return (await listOperatorTokens(databases.keys.db)).map((token) => ({
    id: token.id,
    name: token.name,
    created_at: token.createdAt.toISOString(),
    revoked_at: token.revokedAt?.toISOString() ?? null,
  }));
}
