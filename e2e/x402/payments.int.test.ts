import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SCHEMA as BILLING_SCHEMA, type BillingTables } from "@gw/billing";
import { connectDatabase, type Database, freePort } from "@gw/db";
import { createAccount, createApiKey, SCHEMA as KEYS_SCHEMA, type KeysTables } from "@gw/keys";
import { createLogger } from "@gw/logger";
import { loadStandaloneConfig, type RunningStandalone, startStandalone } from "@gw/standalone";
import { createTestDatabase, describeWith, type TestDatabase } from "@gw/testing";
import { createSiweMessage, generateSiweNonce } from "viem/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { base64Json, NETWORK, newPayer, ONE_USD, signPayment, USDC } from "./payment-fixtures.js";

// Every bad payment of issue 11's list, sent through the edge of the embedded default with x402 on:
// each is a 4xx naming the reason, no facilitator is asked, and billing's ledger holds no credit. The
// facilitator is a node:http server that never answers, so a payment that passes the gateway's own
// check shows the timeout path too (503, nothing credited, nothing served).

/** The error body the gateway answers with, plus v1's offer fields on a 402 that offers a top-up. */
interface ErrorBody {
  error: { code?: number; metadata?: { reason?: string; payment_reason?: string } };
  x402Version?: number;
  accepts?: Array<Record<string, unknown>>;
  choices?: unknown;
}

const PAY_TO = "0x2096000000000000000000000000000000000001";

/** A chat request with a Host header of the test's choosing (fetch sends the URL's own). */
function postWithHost(
  url: string,
  host: string,
): Promise<{ status: number; paymentRequired: string; body: string }> {
  const body = JSON.stringify({ model: "demo/echo", messages: [{ role: "user", content: "hi" }] });
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: "POST", headers: { host, "content-type": "application/json" } },
      (answer) => {
        let text = "";
        answer.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        answer.on("end", () =>
          resolve({
            status: answer.statusCode ?? 0,
            paymentRequired: String(answer.headers["payment-required"] ?? ""),
            body: text,
          }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}
const OTHER = "0x3000000000000000000000000000000000000003";

describeWith(["postgres"], "x402 payments through the edge (embedded default, x402 on)", () => {
  let database: TestDatabase;
  let billing: Database<BillingTables>;
  let gateway: RunningStandalone;
  let facilitator: Server;
  const facilitatorCalls: string[] = [];
  /**
   * How the facilitator behaves: it never answers (a timeout), answers 500 (no verdict), or verifies and
   * then fails to settle, in the facilitator API's own wire format (x402's VerifyResponse/SettleResponse).
   */
  let facilitatorMode: "hang" | "error" | "settle_fails" | "settle_hangs" | "settles" = "hang";
  const dataDir = mkdtempSync(join(tmpdir(), "gw-x402-"));

  beforeAll(async () => {
    database = await createTestDatabase({ prefix: "x402" });
    facilitator = createServer((request, response) => {
      facilitatorCalls.push(`${request.method} ${request.url}`);
      if (facilitatorMode === "hang") return;
      if (facilitatorMode === "error") {
        response.writeHead(500, { "content-type": "application/json" }).end('{"error":"internal"}');
        return;
      }
      let body = "";
      request.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on("end", () => {
        if (facilitatorMode === "settle_hangs" && request.url === "/settle") return;
        const { paymentPayload } = JSON.parse(body) as {
          paymentPayload: { payload: { authorization: { from: string } } };
        };
        const payer = paymentPayload.payload.authorization.from;
        const answer =
          request.url === "/verify"
            ? { isValid: true, payer }
            : facilitatorMode === "settles"
              ? { success: true, transaction: `0x${"ab".repeat(32)}`, network: NETWORK, payer }
              : {
                  success: false,
                  errorReason: "insufficient_funds",
                  transaction: "",
                  network: NETWORK,
                  payer,
                };
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => facilitator.listen(0, "127.0.0.1", resolve));
    const port = await freePort();
    const env = {
      PORT: String(port),
      HOST: "127.0.0.1",
      GW_DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      X402_ENABLED: "true",
      X402_FACILITATOR_URL: `http://127.0.0.1:${(facilitator.address() as AddressInfo).port}`,
      X402_PAY_TO_EVM: PAY_TO,
      X402_TOPUP_AMOUNTS: "1,5",
    };
    gateway = await startStandalone(loadStandaloneConfig(env), env, createLogger("x402-test", "error"));
    billing = connectDatabase<BillingTables>({
      url: database.url,
      schema: BILLING_SCHEMA,
      maxConnections: 2,
    });
  }, 120_000);

  afterAll(async () => {
    await billing?.close();
    await gateway?.stop();
    facilitator?.closeAllConnections();
    await new Promise((resolve) => facilitator?.close(resolve));
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const chat = (headers: Record<string, string>) =>
    fetch(`${gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ model: "demo/echo", messages: [{ role: "user", content: "hi" }] }),
    });
  const x402Credits = async () =>
    billing.db
      .selectFrom("ledger_entries")
      .select(["reference"])
      .where("reference", "like", "x402:%")
      .execute();

  it("answers a request with no credential with 402 and both x402 generations' offers", async () => {
    const response = await chat({});
    expect(response.status).toBe(402);
    const header = response.headers.get("payment-required");
    expect(header).toBeTruthy();
    const offer = JSON.parse(Buffer.from(header ?? "", "base64").toString("utf8"));
    expect(offer.x402Version).toBe(2);
    expect(offer.accepts.map((accept: { amount: string }) => accept.amount)).toEqual(["1000000", "5000000"]);
    expect(offer.accepts[0]).toMatchObject({ scheme: "exact", network: NETWORK, asset: USDC, payTo: PAY_TO });
    expect(offer.resource.url).toBe(`${gateway.url}/v1/chat/completions`);
    expect(offer.extensions["sign-in-with-x"].info.nonce).toMatch(/^[0-9a-f]{32}$/);
    const body = (await response.json()) as ErrorBody;
    expect(body.error.metadata?.reason).toBe("x402_payment_required");
    expect(body.x402Version).toBe(1);
    expect(body.accepts?.[0]).toMatchObject({
      network: "base-sepolia",
      maxAmountRequired: ONE_USD,
      payTo: PAY_TO,
    });
  });

  it("offers the same top-up on the Responses, legacy completions and /api/v1 inference routes", async () => {
    const bodies: Record<string, unknown> = {
      "/v1/responses": { model: "demo/echo", input: "hi" },
      "/v1/completions": { model: "demo/echo", prompt: "hi" },
      "/api/v1/chat/completions": { model: "demo/echo", messages: [{ role: "user", content: "hi" }] },
      "/api/v1/responses": { model: "demo/echo", input: "hi" },
    };
    for (const [path, body] of Object.entries(bodies)) {
      const response = await fetch(`${gateway.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status, path).toBe(402);
      const offer = JSON.parse(
        Buffer.from(response.headers.get("payment-required") ?? "", "base64").toString("utf8"),
      );
      expect(offer.resource.url, path).toBe(`${gateway.url}${path}`);
    }
  });

  it("leaves API keys as they were: served with credits, today's 402 without an offer when out of them", async () => {
    const served = await chat({ authorization: `Bearer ${gateway.credentials.api_key}` });
    expect(served.status).toBe(200);
    expect(served.headers.get("payment-required")).toBeNull();
    const keys = connectDatabase<KeysTables>({ url: database.url, schema: KEYS_SCHEMA, maxConnections: 1 });
    try {
      const account = await createAccount(keys, { name: "no credits" });
      const { key } = await createApiKey(keys, { accountId: account.accountId, name: "broke" });
      const refused = await chat({ authorization: `Bearer ${key}` });
      expect(refused.status).toBe(402);
      expect(refused.headers.get("payment-required")).toBeNull();
      const body = (await refused.json()) as ErrorBody;
      expect(body.error.metadata?.reason).toBe("insufficient_credits");
      expect(body.accepts).toBeUndefined();
    } finally {
      await keys.close();
    }
  });

  it("offers a top-up to a signed-in wallet whose balance cannot cover the request", async () => {
    const wallet = newPayer();
    const { host } = new URL(gateway.url);
    const message = createSiweMessage({
      domain: host,
      address: wallet.address,
      uri: `${gateway.url}/v1/x402/auth`,
      version: "1",
      chainId: 84532,
      nonce: generateSiweNonce(),
      issuedAt: new Date(),
    });
    const signature = await wallet.signMessage({ message });
    const signIn = await fetch(`${gateway.url}/v1/x402/auth`, {
      method: "POST",
      headers: { "sign-in-with-x": base64Json({ message, signature }) },
    });
    expect(signIn.status).toBe(200);
    const { jwt } = (await signIn.json()) as { jwt: string };
    const response = await chat({ authorization: `Bearer ${jwt}` });
    expect(response.status).toBe(402);
    const offer = JSON.parse(
      Buffer.from(response.headers.get("payment-required") ?? "", "base64").toString(),
    );
    expect(offer).toMatchObject({ x402Version: 2, error: "insufficient_credits" });
    expect(offer.accepts[0]).toMatchObject({ amount: ONE_USD, payTo: PAY_TO });
    const body = (await response.json()) as ErrorBody;
    expect(body.error.metadata?.reason).toBe("insufficient_credits");
    expect(body.x402Version).toBe(1);

    // The same JWT as `?key=` under a Host of the caller's choosing (issue 33): the offer echoed both,
    // and x402 clients copy resource.url into the payment the gateway forwards to the facilitator.
    const echoed = await postWithHost(`${gateway.url}/v1/chat/completions?key=${jwt}`, "evil.example:1");
    expect(echoed.status).toBe(402);
    const echoedOffer = JSON.parse(Buffer.from(echoed.paymentRequired, "base64").toString());
    expect(echoedOffer.resource.url).toBe(`${gateway.url}/v1/chat/completions`);
    expect(echoedOffer.extensions["sign-in-with-x"].info.domain).toBe(host);
    expect(echoed.body).not.toContain(jwt);
    expect(echoed.body).not.toContain("evil.example");
  });

  it("refuses every bad payment with a 4xx naming the reason, asks no facilitator and credits nothing", async () => {
    const payer = newPayer();
    const now = BigInt(Math.floor(Date.now() / 1000));
    const good = await signPayment(payer, { payTo: PAY_TO });
    const tampered = structuredClone(good) as { payload: { signature: string } };
    tampered.payload.signature = `${tampered.payload.signature.slice(0, -4)}${tampered.payload.signature.endsWith("00") ? "11" : "00"}1b`;
    const permit2 = {
      ...good,
      payload: {
        signature: "0x00",
        permit2Authorization: { from: payer.address, permitted: {}, spender: PAY_TO },
      },
    };
    const cases: Array<{ name: string; header: string; status: number; reason: string | RegExp }> = [
      { name: "malformed base64", header: "%%%not-base64", status: 400, reason: "invalid_payload" },
      {
        name: "base64 of no JSON",
        header: Buffer.from("{oops").toString("base64"),
        status: 400,
        reason: "invalid_payload",
      },
      {
        name: "wrong amount",
        header: base64Json(await signPayment(payer, { payTo: PAY_TO, value: "999999" })),
        status: 402,
        reason: "invalid_exact_evm_payload_authorization_value_mismatch",
      },
      {
        name: "wrong payee",
        header: base64Json(await signPayment(payer, { payTo: PAY_TO, to: OTHER })),
        status: 402,
        reason: "invalid_exact_evm_payload_recipient_mismatch",
      },
      {
        name: "wrong asset",
        header: base64Json(
          await signPayment(payer, {
            payTo: PAY_TO,
            asset: OTHER,
            accepted: { ...(good.accepted as object), asset: OTHER },
          }),
        ),
        status: 402,
        reason: "invalid_exact_evm_asset_mismatch",
      },
      {
        name: "wrong network",
        header: base64Json(
          await signPayment(payer, {
            payTo: PAY_TO,
            chainId: 8453,
            accepted: { ...(good.accepted as object), network: "eip155:8453" },
          }),
        ),
        status: 402,
        reason: "invalid_network",
      },
      {
        name: "wrong scheme",
        header: base64Json({ ...good, accepted: { ...(good.accepted as object), scheme: "upto" } }),
        status: 402,
        reason: "unsupported_scheme",
      },
      {
        name: "expired authorization",
        header: base64Json(
          await signPayment(payer, { payTo: PAY_TO, validAfter: now - 900n, validBefore: now - 60n }),
        ),
        status: 402,
        reason: "invalid_exact_evm_payload_authorization_valid_before",
      },
      {
        name: "tampered signature",
        header: base64Json(tampered),
        status: 402,
        reason: "invalid_exact_evm_payload_signature",
      },
      {
        name: "Permit2 payload",
        header: base64Json(permit2),
        status: 402,
        reason: "unsupported_payload_type",
      },
      {
        name: "an unknown x402Version",
        header: base64Json({ ...good, x402Version: 3 }),
        status: 402,
        reason: "invalid_x402_version",
      },
      {
        name: "accepted is not an object",
        header: base64Json({ ...good, accepted: null }),
        status: 402,
        reason: "invalid_payload",
      },
      {
        name: "authorization fields of the wrong type",
        header: base64Json({
          ...good,
          payload: { signature: 7, authorization: { from: 1, to: [], value: {}, nonce: null } },
        }),
        status: 402,
        reason: "invalid_payload",
      },
      {
        name: "v1 X-PAYMENT with the wrong amount",
        header: "v1",
        status: 402,
        reason: "invalid_exact_evm_payload_authorization_value_mismatch",
      },
    ];
    const v1 = await signPayment(payer, { payTo: PAY_TO, value: "123" });
    const v1Header = base64Json({
      x402Version: 1,
      scheme: "exact",
      network: "base-sepolia",
      payload: v1.payload,
    });
    for (const testCase of cases) {
      const headers: Record<string, string> =
        testCase.header === "v1" ? { "x-payment": v1Header } : { "payment-signature": testCase.header };
      const response = await chat(headers);
      const body = (await response.json()) as ErrorBody;
      expect({ name: testCase.name, status: response.status }).toEqual({
        name: testCase.name,
        status: testCase.status,
      });
      expect({ name: testCase.name, reason: body.error.metadata?.payment_reason }).toEqual({
        name: testCase.name,
        reason: testCase.reason,
      });
      expect(body.error.metadata?.reason).toBe(
        testCase.status === 400 ? "payment_malformed" : "payment_invalid",
      );
      if (testCase.status === 402) expect(response.headers.get("payment-required")).toBeTruthy();
    }
    expect(facilitatorCalls).toEqual([]);
    expect(await x402Credits()).toEqual([]);
  });

  it("answers 502 when the facilitator answers an error: nothing credited, the request not served", async () => {
    facilitatorMode = "error";
    facilitatorCalls.length = 0;
    const payment = await signPayment(newPayer(), { payTo: PAY_TO });
    const response = await chat({ "payment-signature": base64Json(payment) });
    expect(response.status).toBe(502);
    const body = (await response.json()) as ErrorBody;
    expect(body.error).toMatchObject({
      metadata: { reason: "facilitator_error", payment_reason: "bad_status" },
    });
    expect(body.choices).toBeUndefined();
    expect(facilitatorCalls).toEqual(["POST /verify"]);
    expect(await x402Credits()).toEqual([]);
  });

  it("answers 402 with PAYMENT-RESPONSE success:false when settlement fails: nothing credited or served", async () => {
    facilitatorMode = "settle_fails";
    facilitatorCalls.length = 0;
    const payment = await signPayment(newPayer(), { payTo: PAY_TO });
    const response = await chat({ "payment-signature": base64Json(payment) });
    expect(response.status).toBe(402);
    const settled = JSON.parse(
      Buffer.from(response.headers.get("payment-response") ?? "", "base64").toString(),
    );
    expect(settled).toMatchObject({ success: false, errorReason: "insufficient_funds" });
    const body = (await response.json()) as ErrorBody;
    expect(body.error).toMatchObject({
      code: 402,
      metadata: { reason: "payment_settlement_failed", payment_reason: "insufficient_funds" },
    });
    expect(body.choices).toBeUndefined();
    expect(facilitatorCalls).toEqual(["POST /verify", "POST /settle"]);
    expect(await x402Credits()).toEqual([]);
  });

  it("answers 503 when settle never answers (its outcome unknown): nothing credited, the request not served", async () => {
    facilitatorMode = "settle_hangs";
    facilitatorCalls.length = 0;
    const payment = await signPayment(newPayer(), { payTo: PAY_TO });
    const response = await chat({ "payment-signature": base64Json(payment) });
    expect(response.status).toBe(503);
    const body = (await response.json()) as ErrorBody;
    expect(body.error).toMatchObject({
      metadata: { reason: "facilitator_unavailable", payment_reason: "timeout" },
    });
    expect(body.choices).toBeUndefined();
    expect(response.headers.get("payment-response")).toBeNull();
    expect(facilitatorCalls).toEqual(["POST /verify", "POST /settle"]);
    expect(await x402Credits()).toEqual([]);
  }, 30_000);

  it("answers 503 when the facilitator never answers: nothing credited, the request not served", async () => {
    facilitatorMode = "hang";
    facilitatorCalls.length = 0;
    const payment = await signPayment(newPayer(), { payTo: PAY_TO });
    const response = await chat({ "payment-signature": base64Json(payment) });
    expect(response.status).toBe(503);
    const body = (await response.json()) as ErrorBody;
    expect(body.error).toMatchObject({
      metadata: { reason: "facilitator_unavailable", payment_reason: "timeout" },
    });
    expect(body.choices).toBeUndefined();
    expect(response.headers.get("payment-response")).toBeNull();
    expect(facilitatorCalls).toEqual(["POST /verify"]);
    expect(await x402Credits()).toEqual([]);
  }, 30_000);

  it("refuses a settled payment presented again before any facilitator call (the edge's replay guard), credited once", async () => {
    // Last: the earlier tests assert that no x402 credit exists at all.
    facilitatorMode = "settles";
    facilitatorCalls.length = 0;
    const payment = base64Json(await signPayment(newPayer(), { payTo: PAY_TO }));
    const paid = await chat({ "payment-signature": payment });
    expect(paid.status).toBe(200);
    expect(facilitatorCalls).toEqual(["POST /verify", "POST /settle"]);
    await expect.poll(async () => (await x402Credits()).length, { timeout: 10_000 }).toBe(1);
    // The facilitator here would verify and settle it again (it keeps no nonces): only the edge's own
    // record of settled authorizations (payments/pay.ts, RecentAuthorizations) refuses the replay.
    const replay = await chat({ "payment-signature": payment });
    const body = (await replay.json()) as ErrorBody;
    expect(replay.status).toBe(402);
    expect(body.error.metadata).toMatchObject({
      reason: "payment_invalid",
      payment_reason: "invalid_exact_evm_nonce_already_used",
    });
    expect(body.choices).toBeUndefined();
    expect(facilitatorCalls).toEqual(["POST /verify", "POST /settle"]);
    expect(await x402Credits()).toHaveLength(1);
  });

  it("refuses a new payer over the account-creation limit with 429 and Retry-After, before settling anything", async () => {
    facilitatorMode = "settles";
    facilitatorCalls.length = 0;
    // This client address has made its 20 accounts (the default limit) in the current window.
    const keys = connectDatabase<KeysTables>({ url: database.url, schema: KEYS_SCHEMA, maxConnections: 1 });
    try {
      const hour = 3_600_000;
      const windowStart = new Date(Math.floor(Date.now() / hour) * hour);
      await keys.db
        .insertInto("account_creation_windows")
        .values({ scope: "address", subject: "127.0.0.1", window_start: windowStart, created: 20 })
        .onConflict((conflict) =>
          conflict.columns(["scope", "subject", "window_start"]).doUpdateSet({ created: 20 }),
        )
        .execute();
    } finally {
      await keys.close();
    }
    const credits = (await x402Credits()).length;
    const response = await chat({
      "payment-signature": base64Json(await signPayment(newPayer(), { payTo: PAY_TO })),
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = (await response.json()) as ErrorBody;
    expect(body.error).toMatchObject({ code: 429, metadata: { reason: "account_creation_limited" } });
    expect(body.choices).toBeUndefined();
    // Verified, never settled: the payer keeps its money and may pay again once the window ends.
    expect(facilitatorCalls).toEqual(["POST /verify"]);
    expect(await x402Credits()).toHaveLength(credits);
  });
});
