import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@gw/db";
import { type FakeServer, startFakeOpenAi } from "@gw/fake-providers";
import { createTestDatabase, describeWith, kafkaBrokers, type TestDatabase } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AppProcess,
  eventually,
  freshTopics,
  splitPlaneEnv,
  startProcess,
  waitForHttp,
} from "./processes.js";
import {
  brokerPaymentEvents,
  outboxPaymentEvents,
  type PaymentEvents,
  settledEventsConsumed,
} from "./x402/payment-events.js";
import {
  accountCredits,
  EVM_NETWORK,
  payAndUse,
  payWhileBillingDown,
  payWithV1Header,
  SVM_NETWORK,
  servedWithJwt,
  signedInWalletTopsUp,
  startTestnetFacilitator,
  type TestnetFacilitator,
  tenantOf,
  unfundedPayerRefused,
  x402Env,
} from "./x402-flow.js";

// x402 end to end, every part its own process: the test facilitator over in-process chains
// (packages/x402), the gateway with X402_ENABLED=true pointed at it, and an agent paying with x402's
// official client (@x402/fetch + @x402/evm, a viem local account holding the chain's test USDC). Once
// on the embedded default and once on the split plane. Prints what a payment adds to a request.

describe("x402 on the embedded default", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "gw-x402-e2e-"));
  let facilitator: AppProcess | undefined;
  let gateway: AppProcess | undefined;
  let info: TestnetFacilitator;
  let url: string;

  beforeAll(async () => {
    const started = await startTestnetFacilitator();
    facilitator = started.process;
    info = started.info;
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      PORT: String(port),
      GW_DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ...x402Env(info),
    };
    for (const name of [
      "DATABASE_URL",
      "REDIS_URL",
      "KAFKA_BROKERS",
      "OPENAI_API_KEY",
      "WALLET_JWT_SECRET",
      "PUBLIC_BASE_URL",
    ])
      env[name] = "";
    gateway = startProcess("standalone", "apps/standalone/dist/main.js", env);
    await waitForHttp(`${url}/readyz`, gateway, 120_000);
  }, 180_000);

  afterAll(async () => {
    await gateway?.stop();
    await facilitator?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("a Solana agent pays the 402 with x402's official Solana client, is served, and uses the JWT", async () => {
    const timing = await payAndUse({
      gatewayUrl: url,
      info,
      network: SVM_NETWORK,
      payerIndex: 0,
      cliEnv: { GW_DATA_DIR: dataDir, DATABASE_URL: "" },
      paymentEvents: outboxPaymentEvents(dataDir),
    });
    console.log(
      `x402 embedded, Solana: paid request ${timing.paidMs.toFixed(0)} ms, of which the gateway's payment ` +
        `handling ${timing.gatewayPaymentMs} ms; same request with the JWT ${timing.unpaidMs.toFixed(0)} ms`,
    );
  }, 60_000);

  it("an agent pays the 402 with x402's official client, is served, and uses the JWT with the openai SDK", async () => {
    const timing = await payAndUse({
      gatewayUrl: url,
      info,
      network: EVM_NETWORK,
      payerIndex: 0,
      cliEnv: { GW_DATA_DIR: dataDir, DATABASE_URL: "" },
      paymentEvents: outboxPaymentEvents(dataDir),
    });
    console.log(
      `x402 embedded: paid request ${timing.paidMs.toFixed(0)} ms (402 + pay + settle + serve), of which the ` +
        `gateway's payment handling ${timing.gatewayPaymentMs} ms; ` +
        `same request with the JWT ${timing.unpaidMs.toFixed(0)} ms`,
    );
    expect(timing.paidMs).toBeGreaterThan(timing.unpaidMs);
  }, 60_000);

  it("a signed-in wallet without balance gets the offer, pays it, and its own account is credited", async () => {
    await signedInWalletTopsUp(url, info, 1);
  }, 30_000);

  it("takes a v1 client's X-PAYMENT and answers with X-PAYMENT-RESPONSE", async () => {
    await payWithV1Header(url, info, 2);
  }, 30_000);

  it("refuses a wallet whose authorization the facilitator cannot verify (no USDC): 402, nothing served", async () => {
    await unfundedPayerRefused(url);
  }, 30_000);
});

describeWith(["postgres", "redis", "kafka"], "x402 on the split plane", () => {
  const apps: AppProcess[] = [];
  let database: TestDatabase;
  let demo: FakeServer;
  let info: TestnetFacilitator;
  let edgeUrl: string;
  let startBilling: () => Promise<AppProcess>;
  let paymentEvents: PaymentEvents;

  beforeAll(async () => {
    database = await createTestDatabase({ prefix: "x402_split" });
    // The split plane has no built-in demo provider: the edge is pointed at one (as DEMO_PROVIDER_URL).
    demo = await startFakeOpenAi({ demo: true, host: "127.0.0.1", port: 0 });
    const started = await startTestnetFacilitator();
    apps.push(started.process);
    info = started.info;
    const topics = await freshTopics("x402", kafkaBrokers());
    paymentEvents = brokerPaymentEvents(kafkaBrokers(), topics.TOPIC_PAYMENTS);
    const plane = await splitPlaneEnv({ topics, databaseUrl: database.url, redisPrefix: "x402" });
    const { port, env } = plane;
    edgeUrl = plane.edgeUrl;
    const control = [
      ["keys", port.keysHttp, port.keysGrpc],
      ["billing", port.billingHttp, port.billingGrpc],
      ["generations", port.generationsHttp, port.generationsGrpc],
    ] as const;
    const started3 = control.map(([name, http, grpc]) => ({
      http,
      app: startProcess(name, `apps/${name}/dist/main.js`, {
        ...env,
        HTTP_PORT: String(http),
        GRPC_PORT: String(grpc),
      }),
    }));
    apps.push(...started3.map((entry) => entry.app));
    startBilling = async () => {
      const billing = startProcess("billing", "apps/billing/dist/main.js", {
        ...env,
        HTTP_PORT: String(port.billingHttp),
        GRPC_PORT: String(port.billingGrpc),
      });
      apps.push(billing);
      await waitForHttp(`http://127.0.0.1:${port.billingHttp}/healthz`, billing);
      return billing;
    };
    await Promise.all(
      started3.map((entry) => waitForHttp(`http://127.0.0.1:${entry.http}/healthz`, entry.app)),
    );
    const edge = startProcess("edge", "apps/edge/dist/main.js", {
      ...env,
      ...x402Env(info),
      HTTP_PORT: String(port.edge),
      KEYS_HTTP_URL: `http://127.0.0.1:${port.keysHttp}`,
      BILLING_HTTP_URL: `http://127.0.0.1:${port.billingHttp}`,
      GENERATIONS_HTTP_URL: `http://127.0.0.1:${port.generationsHttp}`,
      DEMO_PROVIDER_URL: demo.baseUrl,
    });
    apps.push(edge);
    await waitForHttp(`${edgeUrl}/readyz`, edge);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await demo?.close();
    await database?.drop();
  });

  it("an agent pays the 402 with x402's official client, is served, and uses the JWT with the openai SDK", async () => {
    const timing = await payAndUse({
      gatewayUrl: edgeUrl,
      info,
      network: EVM_NETWORK,
      payerIndex: 1,
      cliEnv: { DATABASE_URL: database.url },
      paymentEvents,
    });
    console.log(
      `x402 split plane: paid request ${timing.paidMs.toFixed(0)} ms (402 + pay + settle + serve), of which the ` +
        `gateway's payment handling ${timing.gatewayPaymentMs} ms; ` +
        `same request with the JWT ${timing.unpaidMs.toFixed(0)} ms`,
    );
    expect(timing.paidMs).toBeGreaterThan(timing.unpaidMs);
  }, 60_000);

  it("a Solana agent pays with x402's official Solana client on the split plane too", async () => {
    const timing = await payAndUse({
      gatewayUrl: edgeUrl,
      info,
      network: SVM_NETWORK,
      payerIndex: 1,
      cliEnv: { DATABASE_URL: database.url },
      paymentEvents,
    });
    console.log(
      `x402 split plane, Solana: paid request ${timing.paidMs.toFixed(0)} ms, of which the gateway's payment ` +
        `handling ${timing.gatewayPaymentMs} ms; same request with the JWT ${timing.unpaidMs.toFixed(0)} ms`,
    );
  }, 60_000);

  it("a payment settled while billing is down is credited from its event once billing is back", async () => {
    const billing = apps.find((app) => app.name === "billing");
    await billing?.stop();
    apps.splice(apps.indexOf(billing as AppProcess), 1);
    const eventsBefore = (await paymentEvents()).published;
    const jwt = await payWhileBillingDown(edgeUrl, info, 2);
    await startBilling();
    const cliEnv = { DATABASE_URL: database.url };
    await eventually(async () => {
      const credits = await accountCredits(edgeUrl, tenantOf(jwt), cliEnv);
      return credits.total_credits === 1 ? credits : undefined;
    }, 30_000);
    await servedWithJwt(edgeUrl, jwt);
    // Credited once, however the event and any retry raced: read once billing has handled the event.
    await settledEventsConsumed(paymentEvents, eventsBefore);
    expect((await accountCredits(edgeUrl, tenantOf(jwt), cliEnv)).total_credits).toBe(1);
  }, 90_000);
});
