import { ConfigError, type Env, loadConfig, z } from "@gw/config";

/** x402 payments as configured (X402_*); `undefined` from loadX402Config when X402_ENABLED is false. */
export interface X402Config {
  facilitatorUrl: string;
  /** CAIP-2 networks offered, in the order offered (`eip155:<chain id>` or `solana:<genesis hash>`). */
  networks: string[];
  payToEvm: string | undefined;
  payToSolana: string | undefined;
  /** Top-up amounts in USD, ascending (the first is offered first), as decimal strings. */
  topupAmountsUsd: string[];
  /** X402_ASSETS: the token per network where it is not USDC's well-known address. */
  assets: Record<string, string>;
  /**
   * PUBLIC_BASE_URL, no trailing slash: the offer's `resource.url` is it plus the route, and the
   * sign-in domain its host. Never the request's URL or `Host` (issue 33: those carried `?key=`
   * credentials and a caller-chosen host into the offer, which clients copy to the facilitator).
   */
  publicBaseUrl: string;
}

const EVM_NETWORK = /^eip155:[1-9][0-9]{0,18}$/;
const SOLANA_NETWORK = /^solana:[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
/** USDC has 6 decimals: a top-up finer than a micro-dollar cannot be paid. */
const USD_AMOUNT = /^(0|[1-9][0-9]{0,6})(\.[0-9]{1,6})?$/;

const list = (value: string): string[] =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

export const x402Env = {
  X402_ENABLED: z
    .enum(["true", "false"], { message: "expected true or false" })
    .default("false")
    .transform((value) => value === "true"),
  X402_FACILITATOR_URL: z.url().optional(),
  X402_NETWORKS: z.string().default("eip155:84532"),
  X402_PAY_TO_EVM: z.string().optional(),
  X402_PAY_TO_SOLANA: z.string().optional(),
  X402_TOPUP_AMOUNTS: z.string().default("1,5,10"),
  X402_ASSETS: z.string().optional(),
  PUBLIC_BASE_URL: z.url().optional(),
};

/**
 * Parses and cross-checks the X402_* variables. With X402_ENABLED=false nothing else is required and
 * the answer is undefined; enabled, every list must parse, a facilitator URL must be set, each
 * configured network family needs its pay-to address, at least one top-up must be at most 1 USD
 * (the reference x402 client refuses larger payments by default), and PUBLIC_BASE_URL must name the
 * gateway's public http(s) base.
 */
export function loadX402Config(env: Env = process.env): X402Config | undefined {
  const parsed = loadConfig(x402Env, env);
  if (!parsed.X402_ENABLED) return undefined;
  const issues: string[] = [];
  const networks = list(parsed.X402_NETWORKS);
  if (networks.length === 0) issues.push("X402_NETWORKS: expected at least one CAIP-2 network");
  for (const network of networks)
    if (!EVM_NETWORK.test(network) && !SOLANA_NETWORK.test(network))
      issues.push(`X402_NETWORKS: ${network} is not an eip155:<chain id> or solana:<genesis hash> network`);
  if (new Set(networks).size !== networks.length) issues.push("X402_NETWORKS: a network is listed twice");
  if (!parsed.X402_FACILITATOR_URL) issues.push("X402_FACILITATOR_URL: required when X402_ENABLED=true");
  const payToEvm = payTo("X402_PAY_TO_EVM", parsed.X402_PAY_TO_EVM, EVM_ADDRESS, "a 0x EVM address", issues);
  const payToSolana = payTo(
    "X402_PAY_TO_SOLANA",
    parsed.X402_PAY_TO_SOLANA,
    SOLANA_ADDRESS,
    "a base58 Solana address",
    issues,
  );
  if (networks.some((network) => EVM_NETWORK.test(network)) && !payToEvm)
    issues.push("X402_PAY_TO_EVM: required when X402_NETWORKS has an eip155 network");
  if (networks.some((network) => SOLANA_NETWORK.test(network)) && !payToSolana)
    issues.push("X402_PAY_TO_SOLANA: required when X402_NETWORKS has a solana network");
  const amounts = topupAmounts(parsed.X402_TOPUP_AMOUNTS, issues);
  const assets = assetList(parsed.X402_ASSETS, networks, issues);
  const publicBaseUrl = publicBase(parsed.PUBLIC_BASE_URL, issues);
  if (issues.length > 0) throw new ConfigError(issues);
  return {
    facilitatorUrl: (parsed.X402_FACILITATOR_URL ?? "").replace(/\/+$/, ""),
    networks,
    payToEvm,
    payToSolana,
    topupAmountsUsd: amounts,
    assets,
    publicBaseUrl,
  };
}

/**
 * The base the offers are built on. Required: without it the only origin at hand is the request's
 * `Host`, which the caller chooses. Credentials, a query or a fragment in it would be copied into
 * every offer, so they are refused here.
 */
function publicBase(value: string | undefined, issues: string[]): string {
  if (value === undefined || value === "") {
    issues.push(
      "PUBLIC_BASE_URL: required when X402_ENABLED=true (the offers' resource URL and sign-in domain)",
    );
    return "";
  }
  const url = new URL(value);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    issues.push("PUBLIC_BASE_URL: expected an http or https URL");
  if (url.username || url.password || url.search || url.hash)
    issues.push("PUBLIC_BASE_URL: expected no credentials, query or fragment (the offers would carry them)");
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

function payTo(
  name: string,
  value: string | undefined,
  shape: RegExp,
  expected: string,
  issues: string[],
): string | undefined {
  if (value === undefined) return undefined;
  if (!shape.test(value)) issues.push(`${name}: expected ${expected}`);
  return value;
}

function topupAmounts(value: string, issues: string[]): string[] {
  const amounts = list(value);
  if (amounts.length === 0) issues.push("X402_TOPUP_AMOUNTS: expected at least one USD amount");
  for (const amount of amounts)
    if (!USD_AMOUNT.test(amount) || Number(amount) <= 0)
      issues.push(`X402_TOPUP_AMOUNTS: ${amount} is not a positive USD amount with at most 6 decimals`);
  if (amounts.length > 0 && !amounts.some((amount) => Number(amount) <= 1))
    issues.push(
      "X402_TOPUP_AMOUNTS: at least one amount must be at most 1 (x402 clients refuse more by default)",
    );
  // Micro-dollars are integers: sorting by them is exact.
  return [...amounts].sort((a, b) => microUsd(a) - microUsd(b));
}

function microUsd(amount: string): number {
  const [whole = "0", fraction = ""] = amount.split(".");
  return Number(whole) * 1_000_000 + Number(fraction.padEnd(6, "0"));
}

/** `network=address` pairs, comma-separated; the network must be one of X402_NETWORKS. */
function assetList(value: string | undefined, networks: string[], issues: string[]): Record<string, string> {
  const assets: Record<string, string> = {};
  for (const pair of list(value ?? "")) {
    const at = pair.lastIndexOf("=");
    const network = pair.slice(0, at);
    const address = pair.slice(at + 1);
    if (at <= 0 || !networks.includes(network)) {
      issues.push(`X402_ASSETS: ${pair} is not network=address for a network of X402_NETWORKS`);
      continue;
    }
    const shape = network.startsWith("eip155:") ? EVM_ADDRESS : SOLANA_ADDRESS;
    if (!shape.test(address)) issues.push(`X402_ASSETS: ${address} is not a token address on ${network}`);
    assets[network] = address;
  }
  return assets;
}
