import { waitForOutput } from "@gw/testing/processes";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from "@x402/fetch";
import OpenAI from "openai";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { expect } from "vitest";
import { type AppProcess, runCli, startProcess } from "./processes.js";

/** What the x402 test facilitator process prints on start (packages/x402, testnet/main.ts). */
export interface TestnetFacilitator {
  url: string;
  networks: string[];
  assets: Record<string, { address: string; decimals: number; extra: Record<string, string> }>;
  payers: Record<string, Array<{ address: string; privateKey?: string }>>;
  payees: Record<string, string>;
  balance: string;
  startMs: number;
}

export async function startTestnetFacilitator(): Promise<{ process: AppProcess; info: TestnetFacilitator }> {
  const process = startProcess("x402-facilitator", "packages/x402/dist/testnet/main.js", {});
  const line = await waitForOutput(process, /^(\{"url".*\})$/m, 60_000);
  return { process, info: JSON.parse(line) as TestnetFacilitator };
}

export const EVM_NETWORK = "eip155:84532";

/** The X402_* environment of a gateway that takes payments on the test chain's EVM network. */
export function x402Env(info: TestnetFacilitator): Record<string, string> {
  const asset = info.assets[EVM_NETWORK]?.address ?? "";
  return {
    X402_ENABLED: "true",
    X402_FACILITATOR_URL: info.url,
    X402_NETWORKS: EVM_NETWORK,
    X402_PAY_TO_EVM: info.payees[EVM_NETWORK] ?? "",
    X402_TOPUP_AMOUNTS: "1,5,10",
    X402_ASSETS: `${EVM_NETWORK}=${asset}`,
  };
}

async function tokenBalance(info: TestnetFacilitator, owner: string): Promise<bigint> {
  const response = await fetch(`${info.balance}?network=${encodeURIComponent(EVM_NETWORK)}&owner=${owner}`);
  const body = (await response.json()) as { balance: string };
  return BigInt(body.balance);
}

interface SettleAnswer {
  success: boolean;
  transaction: string;
  network: string;
  payer?: string;
  extensions?: { jwt?: string };
}

const CHAT = { model: "demo/echo", messages: [{ role: "user", content: "paid for with x402" }] };

/**
 * An agent with an EVM wallet and no account: calls the gateway with x402's official fetch wrapper,
 * which pays the 402's cheapest offer (1 USD, within its default spend cap); the gateway settles,
 * credits, serves and answers with PAYMENT-RESPONSE holding a wallet JWT, which then works with the
 * openai SDK. Checks the ledger (through a management key the operator CLI makes for the new account)
 * and the payee's token balance. Returns what the payment added to the request, in milliseconds.
 */
export async function payAndUse(input: {
  gatewayUrl: string;
  info: TestnetFacilitator;
  payerIndex: number;
  cliEnv: Record<string, string>;
}): Promise<{ paidMs: number; unpaidMs: number }> {
  const { info, gatewayUrl } = input;
  const payer = info.payers[EVM_NETWORK]?.[input.payerIndex];
  if (!payer?.privateKey) throw new Error("the facilitator printed no EVM payer");
  const account = privateKeyToAccount(payer.privateKey as Hex);
  const payee = info.payees[EVM_NETWORK] ?? "";
  const payeeBefore = await tokenBalance(info, payee);

  const client = new x402Client().register("eip155:*", new ExactEvmScheme(account));
  const payingFetch = wrapFetchWithPayment(fetch, client);
  const started = performance.now();
  const response = await payingFetch(`${gatewayUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(CHAT),
  });
  const paidMs = performance.now() - started;
  expect(response.status).toBe(200);
  const answer = (await response.json()) as { choices: Array<{ message: { content: string } }> };
  expect(answer.choices[0]?.message.content).toBeTruthy();
  const settled = decodePaymentResponseHeader(response.headers.get("payment-response") ?? "") as SettleAnswer;
  expect(settled).toMatchObject({ success: true, network: EVM_NETWORK, payer: account.address });
  expect(settled.transaction).toMatch(/^0x[0-9a-f]{64}$/);
  const jwt = settled.extensions?.jwt;
  expect(jwt).toMatch(/^eyJ/);

  // The JWT is a credential like an API key: the openai SDK, unchanged.
  const openai = new OpenAI({ baseURL: `${gatewayUrl}/v1`, apiKey: jwt ?? "", maxRetries: 0 });
  const unpaidStarted = performance.now();
  const completion = await openai.chat.completions.create({
    model: "demo/echo",
    messages: CHAT.messages as [],
  });
  const unpaidMs = performance.now() - unpaidStarted;
  expect(completion.choices[0]?.message.content).toBeTruthy();

  // The ledger: 1 USD credited to the wallet's account, once.
  const claims = JSON.parse(Buffer.from((jwt ?? "").split(".")[1] ?? "", "base64url").toString()) as {
    tenant_id: string;
  };
  const created = JSON.parse(
    await runCli(
      "apps/standalone/dist/cli/main.js",
      ["keys", "create", "--account", claims.tenant_id, "--name", "e2e-operator", "--management", "--json"],
      input.cliEnv,
    ),
  ) as { key: string };
  const credits = await fetch(`${gatewayUrl}/api/v1/credits`, {
    headers: { authorization: `Bearer ${created.key}` },
  });
  expect(credits.status).toBe(200);
  const { data } = (await credits.json()) as { data: { total_credits: number; total_usage: number } };
  expect(data.total_credits).toBe(1);
  expect(data.total_usage).toBeGreaterThan(0);

  // The money moved on chain: the payee holds 1 USDC more.
  expect((await tokenBalance(info, payee)) - payeeBefore).toBe(1_000_000n);
  return { paidMs, unpaidMs };
}
