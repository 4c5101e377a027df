import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { fragments, loadConfig, z } from "@gw/config";
import { dataDir } from "../data-dir.js";
import { connectAppDatabases, resolvePostgres } from "../databases.js";
import {
  catalogAliasCommand,
  catalogChangesCommand,
  catalogDisableCommand,
  catalogImportCommand,
  catalogListCommand,
  catalogPriceCommand,
  catalogPricesCommand,
  catalogSetPriceCommand,
  operatorTokenCreateCommand,
  operatorTokenListCommand,
  operatorTokenRevokeCommand,
} from "./catalog-commands.js";
import {
  accountScopeCommand,
  addCreditsCommand,
  createAccountCommand,
  createKeyCommand,
  managementKeysListCommand,
  managementKeysRevokeCommand,
  managementKeysRotateCommand,
  walletRevokeCommand,
} from "./commands.js";
import { serviceKeysEnvFile } from "./service-keys-env.js";

const USAGE = `Model Gateway operator CLI

  gw accounts create --name NAME [--credits USD] [--json]
  gw credits add --account ACCOUNT_ID --amount USD [--reference REF] [--json]
  gw accounts scope --account ACCOUNT_ID [--providers a,b|all] [--models x,y|all] [--json]
  gw keys create --account ACCOUNT_ID --name NAME [--management] [--json]   a key for an existing account
  gw wallets revoke --account ACCOUNT_ID [--json]   revoke every wallet JWT issued to the wallet account
  gw management-keys list --account ACCOUNT_ID [--json]   the account's management keys (hash, name, state)
  gw management-keys revoke --account ACCOUNT_ID --hash HASH [--allow-last] [--json]
                   revoke a management key; the account's last usable one only with --allow-last
  gw management-keys rotate --account ACCOUNT_ID --hash HASH [--json]
                   a new secret for the key (printed once, same name), the old one refused from now on
  With KAFKA_BROKERS set, key and wallet changes reach every edge at once; without, within seconds.
  gw catalog price --provider ID --model NAME --prompt USD --completion USD [--request USD] [--id AUTHOR/SLUG]
                   [--context-length N] [--max-output N] [--json]
                   price a model at a provider (USD per million prompt/completion tokens, USD per request);
                   the catalogue id defaults to PROVIDER/NAME; edges serve it at their next catalogue refresh
  gw catalog prices [--json]   the prices set with gw catalog price
  gw catalog list [--json]     every served model with its endpoints, prices (USD per million tokens), aliases,
                               and what an operator disabled
  gw catalog import --format litellm|openrouter FILE [--apply] [--skip-unknown-providers] [--provider ID]
                   upsert LiteLLM's model_prices_and_context_window.json or OpenRouter's GET /api/v1/models
                   answer: a dry run printing the diff unless --apply; a bad file is refused whole
  gw catalog set-price --model AUTHOR/SLUG --provider ID [--prompt USD] [--completion USD] [--cache-read USD]
                   [--cache-write USD] [--reasoning USD] [--request USD] [--image USD] [--upstream NAME]
                   [--context-length N] [--max-output N]   token prices in USD per million; only those named change
  gw catalog disable --model AUTHOR/SLUG [--provider ID]   stop serving a model, or one of its endpoints
  gw catalog enable --model AUTHOR/SLUG [--provider ID]    serve it again
  gw catalog alias --alias AUTHOR/NAME --model AUTHOR/SLUG | --alias AUTHOR/NAME --remove
  gw catalog changes [--json]  the catalogue's history: who, when, every field old -> new
  gw operator-token create --name NAME   the credential for /api/v1/admin/catalog (printed once, stored hashed)
  gw operator-token revoke --name NAME|ID
  gw operator-token list
  Catalogue changes reach every edge at its next catalogue refresh (CATALOG_REFRESH_MS).
  gw service-keys        a key pair per app for service authentication and a wallet JWT secret, as .env
                         lines for docker compose

Works against DATABASE_URL, or the embedded database under .data/ when it is not set.`;

class UsageError extends Error {}

class RawOutput {
  constructor(readonly text: string) {}
}

const COMMANDS = [
  "accounts create",
  "credits add",
  "accounts scope",
  "keys create",
  "wallets revoke",
  "management-keys list",
  "management-keys revoke",
  "management-keys rotate",
  "catalog price",
  "catalog prices",
  "catalog list",
  "catalog import",
  "catalog set-price",
  "catalog disable",
  "catalog enable",
  "catalog alias",
  "catalog changes",
  "operator-token create",
  "operator-token revoke",
  "operator-token list",
  "service-keys",
];

function requireOption(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value.length === 0) throw new UsageError(`--${name} is required`);
  return value;
}

function usdAmount(value: string, name: string): string {
  if (!/^\d+(\.\d{1,12})?$/.test(value))
    throw new UsageError(`--${name} must be a non-negative USD amount, got ${value}`);
  return value;
}

function tokenCount(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d{0,7}$/.test(value))
    throw new UsageError(`--${name} must be a whole number of tokens, got ${value}`);
  return Number(value);
}

/** "all" (or leaving the option out) lifts the restriction; otherwise a comma-separated list of ids. */
function scopeList(value: string | undefined): string[] | null {
  if (value === undefined || value === "all") return null;
  const ids = value
    .split(",")
    .map((id) => id.trim())
    .filter((id) => id.length > 0);
  if (ids.length === 0) throw new UsageError("a scope list must name at least one id, or be 'all'");
  return ids;
}

async function run(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      credits: { type: "string" },
      account: { type: "string" },
      amount: { type: "string" },
      reference: { type: "string" },
      providers: { type: "string" },
      models: { type: "string" },
      provider: { type: "string" },
      model: { type: "string" },
      id: { type: "string" },
      prompt: { type: "string" },
      completion: { type: "string" },
      request: { type: "string" },
      "context-length": { type: "string" },
      "max-output": { type: "string" },
      format: { type: "string" },
      apply: { type: "boolean", default: false },
      "skip-unknown-providers": { type: "boolean", default: false },
      "cache-read": { type: "string" },
      "cache-write": { type: "string" },
      reasoning: { type: "string" },
      image: { type: "string" },
      upstream: { type: "string" },
      alias: { type: "string" },
      remove: { type: "boolean", default: false },
      management: { type: "boolean", default: false },
      hash: { type: "string" },
      "allow-last": { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  // `gw catalog import --format F FILE`: the file is the one positional after the command.
  const file = positionals[0] === "catalog" && positionals[1] === "import" ? positionals[2] : undefined;
  const command = (file === undefined ? positionals : positionals.slice(0, 2)).join(" ");
  if (values.help || command === "") throw new UsageError("");
  if (!COMMANDS.includes(command)) throw new UsageError(`unknown command: ${command}`);
  // Needs no database; printed as-is (not JSON) so it can be redirected into .env.
  if (command === "service-keys") return new RawOutput(serviceKeysEnvFile());

  const env = loadConfig({
    DATABASE_URL: z.string().url().optional(),
    ...fragments.kafkaBrokers,
    ...fragments.topics,
  });
  const postgres = await resolvePostgres(env.DATABASE_URL, dataDir());
  const databases = await connectAppDatabases(postgres.url);
  try {
    if (command === "accounts create") {
      return await createAccountCommand(databases, {
        name: requireOption(values, "name"),
        ...(values.credits === undefined ? {} : { creditsUsd: usdAmount(values.credits, "credits") }),
      });
    }
    if (command === "accounts scope") {
      return await accountScopeCommand(
        databases,
        {
          accountId: requireOption(values, "account"),
          providers: scopeList(values.providers),
          models: scopeList(values.models),
        },
        env.KAFKA_BROKERS
          ? { brokers: env.KAFKA_BROKERS, keyChangesTopic: env.TOPIC_KEY_CHANGES }
          : undefined,
      );
    }
    if (command === "keys create") {
      return await createKeyCommand(databases, {
        accountId: requireOption(values, "account"),
        name: requireOption(values, "name"),
        management: values.management === true,
      });
    }
    if (command === "catalog price") {
      return await catalogPriceCommand(databases, {
        providerId: requireOption(values, "provider"),
        model: requireOption(values, "model"),
        modelId: values.id,
        promptUsd: usdAmount(requireOption(values, "prompt"), "prompt"),
        completionUsd: usdAmount(requireOption(values, "completion"), "completion"),
        requestUsd: values.request === undefined ? undefined : usdAmount(values.request, "request"),
        contextLength: tokenCount(values["context-length"], "context-length"),
        maxOutput: tokenCount(values["max-output"], "max-output"),
      });
    }
    if (command === "catalog prices") return await catalogPricesCommand(databases);
    if (command.startsWith("catalog ") || command.startsWith("operator-token ")) {
      return await catalogDataCommand(databases, command, values, file);
    }
    if (command.startsWith("management-keys ")) {
      const feed = env.KAFKA_BROKERS
        ? { brokers: env.KAFKA_BROKERS, keyChangesTopic: env.TOPIC_KEY_CHANGES }
        : undefined;
      return await managementKeysCommand(databases, command, values, feed);
    }
    if (command === "wallets revoke") {
      return await walletRevokeCommand(
        databases,
        { accountId: requireOption(values, "account") },
        env.KAFKA_BROKERS
          ? { brokers: env.KAFKA_BROKERS, keyChangesTopic: env.TOPIC_KEY_CHANGES }
          : undefined,
      );
    }
    return await addCreditsCommand(databases, {
      accountId: requireOption(values, "account"),
      amountUsd: usdAmount(requireOption(values, "amount"), "amount"),
      ...(values.reference === undefined ? {} : { reference: values.reference }),
    });
  } finally {
    await databases.close();
    await postgres.stop();
  }
}

type Values = Record<string, string | boolean | undefined>;

/** `gw management-keys list|revoke|rotate` (issue 33). */
async function managementKeysCommand(
  databases: Awaited<ReturnType<typeof connectAppDatabases>>,
  command: string,
  values: Values,
  feed: { brokers: string[]; keyChangesTopic: string } | undefined,
): Promise<unknown> {
  const accountId = requireOption(values, "account");
  if (command === "management-keys list") return managementKeysListCommand(databases, { accountId });
  const hash = requireOption(values, "hash");
  if (!/^[0-9a-f]{64}$/.test(hash)) throw new UsageError(`--hash must be a key's 64 hex digits, got ${hash}`);
  if (command === "management-keys rotate") {
    return managementKeysRotateCommand(databases, { accountId, hash }, feed);
  }
  return managementKeysRevokeCommand(
    databases,
    { accountId, hash, allowLast: values["allow-last"] === true },
    feed,
  );
}

function optionalUsd(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? usdAmount(value, name) : undefined;
}

/** The catalogue-as-data commands (issue 14) and the operator credential. */
async function catalogDataCommand(
  databases: Awaited<ReturnType<typeof connectAppDatabases>>,
  command: string,
  values: Values,
  file: string | undefined,
): Promise<unknown> {
  const model = () => requireOption(values, "model");
  const provider = typeof values.provider === "string" ? values.provider : undefined;
  switch (command) {
    case "catalog list":
      return catalogListCommand(databases);
    case "catalog changes":
      return catalogChangesCommand(databases);
    case "catalog import": {
      if (file === undefined) throw new UsageError("catalog import needs the FILE to read");
      const format = requireOption(values, "format");
      if (format !== "litellm" && format !== "openrouter") {
        throw new UsageError(`--format must be litellm or openrouter, got ${format}`);
      }
      return catalogImportCommand(databases, {
        format,
        text: readFileSync(file, "utf8"),
        apply: values.apply === true,
        skipUnknownProviders: values["skip-unknown-providers"] === true,
        providerId: provider,
      });
    }
    case "catalog set-price":
      return catalogSetPriceCommand(databases, {
        modelId: model(),
        providerId: requireOption(values, "provider"),
        perMillion: {
          prompt: optionalUsd(values, "prompt"),
          completion: optionalUsd(values, "completion"),
          cacheRead: optionalUsd(values, "cache-read"),
          cacheWrite: optionalUsd(values, "cache-write"),
          reasoning: optionalUsd(values, "reasoning"),
        },
        perUnit: { request: optionalUsd(values, "request"), image: optionalUsd(values, "image") },
        upstreamModel: typeof values.upstream === "string" ? values.upstream : undefined,
        contextLength: tokenCount(values["context-length"] as string | undefined, "context-length"),
        maxOutput: tokenCount(values["max-output"] as string | undefined, "max-output"),
      });
    case "catalog disable":
    case "catalog enable":
      return catalogDisableCommand(databases, {
        modelId: model(),
        providerId: provider,
        disabled: command === "catalog disable",
      });
    case "catalog alias":
      return catalogAliasCommand(databases, {
        alias: requireOption(values, "alias"),
        modelId: values.remove === true ? null : model(),
      });
    case "operator-token create":
      return operatorTokenCreateCommand(databases, requireOption(values, "name"));
    case "operator-token revoke":
      return operatorTokenRevokeCommand(databases, requireOption(values, "name"));
    case "operator-token list":
      return operatorTokenListCommand(databases);
    default:
      throw new UsageError(`unknown command: ${command}`);
  }
}

run(process.argv.slice(2)).then(
  (result) => {
    if (result instanceof RawOutput) process.stdout.write(result.text);
    else console.log(JSON.stringify(result, null, process.argv.includes("--json") ? undefined : 2));
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      if (error.message) console.error(`error: ${error.message}\n`);
      console.error(USAGE);
      process.exit(2);
    }
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
