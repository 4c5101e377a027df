import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SCHEMA as BILLING_SCHEMA, type BillingTables } from "@gw/billing";
import { connectDatabase, type Database, freePort } from "@gw/db";
import { createLogger } from "@gw/logger";
import { loadStandaloneConfig, type RunningStandalone, startStandalone } from "@gw/standalone";
import { createTestDatabase, describeWith, type TestDatabase } from "@gw/testing";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { AppProcess } from "../processes.js";
import { EVM_NETWORK, startTestnetFacilitator, type TestnetFacilitator } from "../x402-flow.js";
import { base64Json, signPayment } from "./payment-fixtures.js";

// Issue 33: a settle whose answer is lost may have moved money. The upstream is the real test
// facilitator process (x402's scheme code over an in-process EVM chain); between it and the gateway a
// relay loses the settle's answer: in one mode after the facilitator has settled on chain, in the other
// without forwarding it at all. The gateway answers 503 (nothing credited), billing records the payment,
// and its reconciler reads the EIP-3009 nonce on the chain (X402_RPC_URLS): settled → credited exactly
// once (also when the client retries the same payment); never settled → nothing credited, reported.

describeWith(["postgres"], "x402 settles whose outcome is unknown are reconciled against the chain", () => {
  let database: TestDatabase;
  let billing: Database<BillingTables>;
  let gateway: RunningStandalone;
  let facilitator: { process: AppProcess; info: TestnetFacilitator };
  let relay: Server;
  let mode: "settle_answer_lost" | "settle_never_sent" = "settle_answer_lost";
  const dataDir = mkdtempSync(join(tmpdir(), "gw-x402-reconcile-"));

  beforeAll(async () => {
    database = await createTestDatabase({ prefix: "x402rec" });
    facilitator = await startTestnetFacilitator();
    relay = createServer((request, response) => {
      void relayed(request).then((answer) => {
        if (answer)
          response.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
    const env = {
      PORT: String(await freePort()),
      HOST: "127.0.0.1",
      GW_DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      X402_ENABLED: "true",
      X402_FACILITATOR_URL: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
      X402_NETWORKS: EVM_NETWORK,
      X402_PAY_TO_EVM: facilitator.info.payees[EVM_NETWORK] ?? "",
      X402_ASSETS: `${EVM_NETWORK}=${facilitator.info.assets[EVM_NETWORK]?.address ?? ""}`,
      X402_TOPUP_AMOUNTS: "1",
      X402_RPC_URLS: `${EVM_NETWORK}=${facilitator.info.rpc[EVM_NETWORK] ?? ""}`,
      X402_RECONCILE_INTERVAL_MS: "500",
    };
    gateway = await startStandalone(loadStandaloneConfig(env), env, createLogger("x402-reconcile", "error"));
    billing = connectDatabase<BillingTables>({
      url: database.url,
      schema: BILLING_SCHEMA,
      maxConnections: 2,
    });
  }, 120_000);

  afterAll(async () => {
    await billing?.close();
    await gateway?.stop();
    relay?.closeAllConnections();
    await new Promise((resolve) => relay?.close(resolve));
    await facilitator?.process.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Forwards to the facilitator; a settle's answer is dropped (undefined) as the mode says. */
  async function relayed(request: IncomingMessage): Promise<{ status: number; body: string } | undefined> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.url === "/settle" && mode === "settle_never_sent") return undefined;
    const upstream = await fetch(`${facilitator.info.url}${request.url}`, {
      method: request.method ?? "GET",
      headers: { "content-type": "application/json" },
      ...(request.method === "POST" ? { body: Buffer.concat(chunks) } : {}),
    });
    const answer = { status: upstream.status, body: await upstream.text() };
    return request.url === "/settle" ? undefined : answer;
  }

  const payer = (index: number) => {
    const key = facilitator.info.payers[EVM_NETWORK]?.[index]?.privateKey;
    if (!key) throw new Error(`no payer ${index}`);
    return privateKeyToAccount(key as Hex);
  };
  const pay = async (payment: Record<string, unknown>) =>
    fetch(`${gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", "payment-signature": base64Json(payment) },
      body: JSON.stringify({ model: "demo/echo", messages: [{ role: "user", content: "hi" }] }),
    });
  const credits = (payerAddress: string) =>
    billing.db
      .selectFrom("ledger_entries")
      .select(["reference", "amount"])
      .where("reference", "like", `x402:${EVM_NETWORK}:${payerAddress.toLowerCase()}:%`)
      .execute();
  const unsettled = (payerAddress: string) =>
    billing.db
      .selectFrom("unsettled_payments")
      .select(["state", "transaction", "detail", "reason"])
      .where("payer", "=", payerAddress)
      .execute();
  const terms = () => ({
    payTo: facilitator.info.payees[EVM_NETWORK] ?? "",
    asset: facilitator.info.assets[EVM_NETWORK]?.address ?? "",
  });

  it("credits once a payment that settled while its answer was lost, also when the client retries it", async () => {
    mode = "settle_answer_lost";
    const account = payer(0);
    const payment = await signPayment(account, terms());
    const lost = await pay(payment);
    expect(lost.status).toBe(503);
    expect(await credits(account.address)).toEqual([]);
    // The client retries the same payment: the facilitator refuses the spent nonce, nothing more moves.
    const retried = await pay(payment);
    expect(retried.status).toBe(402);
    await expect
      .poll(async () => unsettled(account.address), { timeout: 20_000, interval: 250 })
      .toEqual([
        expect.objectContaining({
          state: "credited",
          transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        }),
      ]);
    const credited = await credits(account.address);
    expect(credited).toHaveLength(1);
    expect(Number(credited[0]?.amount)).toBe(1);
    // Later rounds and another retry add nothing.
    await pay(payment);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await credits(account.address)).toHaveLength(1);
  }, 60_000);

  it("credits nothing for a payment that never settled, and reports it once its authorization expires", async () => {
    mode = "settle_never_sent";
    const account = payer(1);
    const validBefore = BigInt(Math.floor(Date.now() / 1000) + 15);
    const payment = await signPayment(account, { ...terms(), validBefore });
    const lost = await pay(payment);
    expect(lost.status).toBe(503);
    // Still valid: it could yet settle, so several rounds later it is still pending.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const early = await billing.db
      .selectFrom("unsettled_payments")
      .select(["state", "attempts"])
      .where("payer", "=", account.address)
      .executeTakeFirst();
    expect(early?.state).toBe("pending");
    expect(early?.attempts).toBeGreaterThanOrEqual(2);
    await expect
      .poll(async () => unsettled(account.address), { timeout: 20_000, interval: 250 })
      .toEqual([expect.objectContaining({ state: "not_settled", transaction: null, reason: "timeout" })]);
    expect(await credits(account.address)).toEqual([]);
  }, 60_000);
});
