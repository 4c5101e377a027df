import { waitForOutput } from "@gw/testing/processes";
import { createKeyPairSignerFromBytes, getBase58Encoder } from "@solana/kit";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import OpenAI from "openai";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage, generateSiweNonce } from "viem/siwe";
import { expect } from "vitest";
import { type AppProcess, runCli, startProcess } from "./processes.js";
import { type PaymentEvents, settledEventsConsumed } from "./x402/payment-events.js";

/** What the x402 test facilitator process prints on start (packages/x402, testnet/main.ts). */
export interface TestnetFacilitator {
  url: string;
  networks: string[];
  assets: Record<string, { address: string; decimals: number; extra: Record<string, string> }>;
  payers: Record<string, Array<{ address: string; privateKey?: string; secretKey?: string }>>;
  rpc: Record<string, string>;
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
export const SVM_NETWORK = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";

/** The X402_* environment of a gateway that takes payments on the test chain's EVM network. */
export function x402Env(info: TestnetFacilitator): Record<string, string> {
  const asset = (network: string) => `${network}=${info.assets[network]?.address ?? ""}`;
  return {
    X402_ENABLED: "true",
    X402_FACILITATOR_URL: info.url,
    X402_NETWORKS: `${EVM_NETWORK},${SVM_NETWORK}`,
    X402_PAY_TO_EVM: info.payees[EVM_NETWORK] ?? "",
    X402_PAY_TO_SOLANA: info.payees[SVM_NETWORK] ?? "",
    X402_TOPUP_AMOUNTS: "1,5,10",
    X402_ASSETS: `${asset(EVM_NETWORK)},${asset(SVM_NETWORK)}`,
  };
}

/** An agent's x402 client for one of the testnet's payers: EVM (viem local account) or Solana (kit signer). */
export async function agentClient(
  info: TestnetFacilitator,
  network: string,
  payerIndex: number,
): Promise<{ client: x402Client; address: string }> {
  const payer = info.payers[network]?.[payerIndex];
  if (network === EVM_NETWORK && payer?.privateKey) {
    const account = privateKeyToAccount(payer.privateKey as Hex);
    return {
      client: new x402Client().register("eip155:*", new ExactEvmScheme(account)),
      address: account.address,
    };
  }
  if (network === SVM_NETWORK && payer?.secretKey) {
    const signer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(payer.secretKey));
    const scheme = new ExactSvmScheme(signer, { rpcUrl: info.rpc[SVM_NETWORK] ?? "" });
    return { client: new x402Client().register("solana:*", scheme), address: signer.address };
  }
  throw new Error(`the facilitator printed no payer ${payerIndex} on ${network}`);
}

async function tokenBalance(info: TestnetFacilitator, network: string, owner: string): Promise<bigint> {
  const response = await fetch(`${info.balance}?network=${encodeURIComponent(network)}&owner=${owner}`);
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
 * An agent with a wallet (EVM or Solana) and no account: calls the gateway with x402's official fetch wrapper,
 * which pays the 402's cheapest offer (1 USD, within its default spend cap); the gateway settles,
 * credits, serves and answers with PAYMENT-RESPONSE holding a wallet JWT, which then works with the
 * openai SDK. Checks the ledger (through a management key the operator CLI makes for the new account)
 * and the payee's token balance. Returns what the payment added to the request, in milliseconds.
 */
export async function payAndUse(input: {
  gatewayUrl: string;
  info: TestnetFacilitator;
  network: string;
  payerIndex: number;
  cliEnv: Record<string, string>;
  paymentEvents: PaymentEvents;
}): Promise<{ paidMs: number; unpaidMs: number; gatewayPaymentMs: number }> {
  const { info, gatewayUrl, network } = input;
  const eventsBefore = (await input.paymentEvents()).published;
  const { client, address } = await agentClient(info, network, input.payerIndex);
  const payee = info.payees[network] ?? "";
  const payeeBefore = await tokenBalance(info, network, payee);

  // Records the payment the official client sends, to replay it below.
  let paymentHeader = "";
  const recordingFetch: typeof fetch = (request, init) => {
    const sent = new Headers(request instanceof Request ? request.headers : init?.headers);
    paymentHeader = sent.get("payment-signature") ?? paymentHeader;
    return fetch(request, init);
  };
  const payingFetch = wrapFetchWithPayment(recordingFetch, client);
  const started = performance.now();
  const response = await payingFetch(`${gatewayUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(CHAT),
  });
  const paidMs = performance.now() - started;
  expect(response.status).toBe(200);
  const gatewayPaymentMs = Number(/x402;dur=(\d+)/.exec(response.headers.get("server-timing") ?? "")?.[1]);
  expect(gatewayPaymentMs).toBeGreaterThan(0);
  const answer = (await response.json()) as { choices: Array<{ message: { content: string } }> };
  expect(answer.choices[0]?.message.content).toBeTruthy();
  const settled = decodePaymentResponseHeader(response.headers.get("payment-response") ?? "") as SettleAnswer;
  expect(settled).toMatchObject({ success: true, network, payer: address });
  expect(settled.transaction).toMatch(
    network === EVM_NETWORK ? /^0x[0-9a-f]{64}$/ : /^[1-9A-HJ-NP-Za-km-z]{64,88}$/,
  );
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

  // The same payment again (a replay): refused before any facilitator call, nothing credited twice.
  const replay = await fetch(`${gatewayUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", "payment-signature": paymentHeader },
    body: JSON.stringify(CHAT),
  });
  expect(replay.status).toBe(402);
  const refused = (await replay.json()) as {
    error: { code: number; metadata: { reason: string; payment_reason: string } };
  };
  expect(refused.error).toMatchObject({
    code: 402,
    metadata: {
      reason: "payment_invalid",
      payment_reason:
        network === EVM_NETWORK ? "invalid_exact_evm_nonce_already_used" : "duplicate_settlement",
    },
  });

  // The ledger: 1 USD credited to the wallet's account, once: read after billing consumed the
  // payment.settled event too (the edge's CreditPayment call credited it first; before the event is
  // handled, a consumer crediting it a second time would still read 1 here).
  await settledEventsConsumed(input.paymentEvents, eventsBefore);
  const credits = await accountCredits(gatewayUrl, tenantOf(jwt ?? ""), input.cliEnv);
  expect(credits.total_credits).toBe(1);
  expect(credits.total_usage).toBeGreaterThan(0);

  // The money moved on chain: the payee holds 1 USDC more.
  expect((await tokenBalance(info, network, payee)) - payeeBefore).toBe(1_000_000n);
  return { paidMs, unpaidMs, gatewayPaymentMs };
}

/**
 * A wallet with no USDC signs a valid authorization: the gateway's own check passes, the facilitator's
 * verify refuses it (it cannot be paid), and the agent gets 402 with x402's `insufficient_funds` and a
 * message saying what to do, never the facilitator's raw contract-revert text.
 */
export async function unfundedPayerRefused(gatewayUrl: string): Promise<void> {
  const client = new x402Client().register(
    "eip155:*",
    new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())),
  );
  const response = await wrapFetchWithPayment(fetch, client)(`${gatewayUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(CHAT),
  });
  expect(response.status).toBe(402);
  const body = (await response.json()) as {
    error: { message: string; metadata: { reason: string; payment_reason: string } };
  };
  expect(body.error.metadata.reason).toBe("payment_invalid");
  // x402's code for it (issue 30), and the gateway's words: not the token contract's revert text.
  expect(body.error.metadata.payment_reason).toBe("insufficient_funds");
  expect(body.error.message).toContain("the paying wallet does not hold");
  expect(body.error.message).not.toMatch(/revert|exceeds balance|transferWithAuthorization|Contract Call/i);
  expect(response.headers.get("payment-response")).toBeNull();
}

export function tenantOf(jwt: string): string {
  const claims = JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString()) as {
    tenant_id: string;
  };
  return claims.tenant_id;
}

/** The account's credits as GET /api/v1/credits tells them, through a management key the operator CLI makes. */
export async function accountCredits(
  gatewayUrl: string,
  tenantId: string,
  cliEnv: Record<string, string>,
): Promise<{ total_credits: number; total_usage: number }> {
  const created = JSON.parse(
    await runCli(
      "apps/standalone/dist/cli/main.js",
      ["keys", "create", "--account", tenantId, "--name", "e2e-operator", "--management", "--json"],
      cliEnv,
    ),
  ) as { key: string };
  const response = await fetch(`${gatewayUrl}/api/v1/credits`, {
    headers: { authorization: `Bearer ${created.key}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { total_credits: number; total_usage: number } }).data;
}

/**
 * Pays while billing is down: the payment is verified and settled (the money moves), the credit call
 * fails, so the request is not served (503) but the answer still carries PAYMENT-RESPONSE with the
 * JWT; the payments event, already published, is what credits it once billing is back.
 */
export async function payWhileBillingDown(
  gatewayUrl: string,
  info: TestnetFacilitator,
  payerIndex: number,
): Promise<string> {
  const { client } = await agentClient(info, EVM_NETWORK, payerIndex);
  const response = await wrapFetchWithPayment(fetch, client)(`${gatewayUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(CHAT),
  });
  expect(response.status).toBe(503);
  const body = (await response.json()) as { error: { metadata: { reason: string } }; choices?: unknown };
  expect(body.error.metadata.reason).toBe("dependency_unavailable");
  expect(body.choices).toBeUndefined();
  const settled = decodePaymentResponseHeader(response.headers.get("payment-response") ?? "") as SettleAnswer;
  expect(settled.success).toBe(true);
  expect(settled.extensions?.jwt).toMatch(/^eyJ/);
  return settled.extensions?.jwt ?? "";
}

/** The wallet's JWT, used with the openai SDK: served from its balance. */
export async function servedWithJwt(gatewayUrl: string, jwt: string): Promise<void> {
  const openai = new OpenAI({ baseURL: `${gatewayUrl}/v1`, apiKey: jwt, maxRetries: 0 });
  const completion = await openai.chat.completions.create({
    model: "demo/echo",
    messages: CHAT.messages as [],
  });
  expect(completion.choices[0]?.message.content).toBeTruthy();
}

/**
 * A v1 client's retry: the same EIP-3009 authorization in v1's `X-PAYMENT` (network by its v1 name,
 * no `accepted`); the gateway settles it and answers with v1's `X-PAYMENT-RESPONSE`.
 */
export async function payWithV1Header(
  gatewayUrl: string,
  info: TestnetFacilitator,
  payerIndex: number,
): Promise<void> {
  const request = {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(CHAT),
  };
  const offered = await fetch(`${gatewayUrl}/v1/chat/completions`, request);
  expect(offered.status).toBe(402);
  const v1Body = (await offered.json()) as { x402Version: number; accepts: Array<{ network: string }> };
  expect(v1Body.x402Version).toBe(1);
  expect(v1Body.accepts[0]?.network).toBe("base-sepolia");
  const { client, address } = await agentClient(info, EVM_NETWORK, payerIndex);
  const paymentRequired = JSON.parse(
    Buffer.from(offered.headers.get("payment-required") ?? "", "base64").toString(),
  );
  const v2 = await client.createPaymentPayload(paymentRequired);
  const v1 = { x402Version: 1, scheme: "exact", network: "base-sepolia", payload: v2.payload };
  const paid = await fetch(`${gatewayUrl}/v1/chat/completions`, {
    ...request,
    headers: { ...request.headers, "x-payment": Buffer.from(JSON.stringify(v1)).toString("base64") },
  });
  expect(paid.status).toBe(200);
  expect(paid.headers.get("payment-response")).toBeNull();
  const settled = decodePaymentResponseHeader(paid.headers.get("x-payment-response") ?? "") as SettleAnswer;
  expect(settled).toMatchObject({ success: true, network: EVM_NETWORK, payer: address });
  expect(settled.extensions?.jwt).toMatch(/^eyJ/);
}

/**
 * A wallet that signed in (SIWx) and has no balance: its request with the JWT gets 402 with the offer,
 * x402's client pays it (keeping the request's Authorization header), and the same account is credited
 * and serves the request: the PAYMENT-RESPONSE JWT names the tenant the sign-in JWT named.
 */
export async function signedInWalletTopsUp(
  gatewayUrl: string,
  info: TestnetFacilitator,
  payerIndex: number,
): Promise<void> {
  const payer = info.payers[EVM_NETWORK]?.[payerIndex];
  if (!payer?.privateKey) throw new Error(`the facilitator printed no EVM payer ${payerIndex}`);
  const account = privateKeyToAccount(payer.privateKey as Hex);
  const origin = new URL(gatewayUrl);
  const message = createSiweMessage({
    domain: origin.host,
    address: account.address,
    uri: `${origin.origin}/v1/x402/auth`,
    version: "1",
    chainId: 84532,
    nonce: generateSiweNonce(),
    issuedAt: new Date(),
  });
  const signature = await account.signMessage({ message });
  const signIn = await fetch(`${gatewayUrl}/v1/x402/auth`, {
    method: "POST",
    headers: { "sign-in-with-x": Buffer.from(JSON.stringify({ message, signature })).toString("base64") },
  });
  expect(signIn.status).toBe(200);
  const { jwt } = (await signIn.json()) as { jwt: string };
  const request = {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${jwt}` },
    body: JSON.stringify(CHAT),
  };
  const refused = await fetch(`${gatewayUrl}/v1/chat/completions`, request);
  expect(refused.status).toBe(402);
  expect(refused.headers.get("payment-required")).toBeTruthy();
  await refused.body?.cancel();
  const client = new x402Client().register("eip155:*", new ExactEvmScheme(account));
  const paid = await wrapFetchWithPayment(fetch, client)(`${gatewayUrl}/v1/chat/completions`, request);
  expect(paid.status).toBe(200);
  const settled = decodePaymentResponseHeader(paid.headers.get("payment-response") ?? "") as SettleAnswer;
  expect(tenantOf(settled.extensions?.jwt ?? "")).toBe(tenantOf(jwt));
  // The sign-in JWT now works too: same account, now with a balance.
  await servedWithJwt(gatewayUrl, jwt);
}
