import { randomBytes, randomUUID } from "node:crypto";
import type { TopicConfig } from "@gw/config";
import {
  deadLetterTopic,
  type EventBus,
  encodeEvent,
  encodePaymentSettled,
  PAYMENT_SETTLED_V1,
  paymentSettled,
  type SettledPayment,
} from "@gw/events";
import { silentLogger } from "@gw/logger";
import { describeWith, type ServiceName } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PAYMENTS_CONSUMER_GROUP, paymentsHandler } from "../consumers/payments.js";
import { eventually } from "./eventually.js";
import { type Harness, startHarness } from "./harness.js";

/** A settled payment of `amountAtomic` USDC units by a fresh payer into a fresh account. */
export function settledPayment(overrides: Partial<SettledPayment> = {}): SettledPayment {
  const payer = `0x${randomBytes(20).toString("hex")}`;
  return {
    network: "eip155:84532",
    payer,
    nonce: `0x${randomBytes(32).toString("hex")}`,
    accountId: `acct_${randomUUID()}`,
    walletAccountId: `eip155:84532:${payer}`,
    asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    payTo: "0x2096000000000000000000000000000000000001",
    amountAtomic: "1000000",
    transaction: `0x${randomBytes(32).toString("hex")}`,
    x402Version: 2,
    settledAt: new Date(),
    ...overrides,
  };
}

/**
 * The payments consumer and CreditPayment: one credit per (network, payer, nonce) however often and
 * by whom the payment is delivered. Parametrised by the bus (in-process and Kafka).
 */
export function describePaymentsConsumer(
  name: string,
  services: readonly ServiceName[],
  makeBus: (topics: TopicConfig) => Promise<EventBus>,
): void {
  describeWith(services, `payments consumer on ${name}`, () => {
    let harness: Harness;
    let bus: EventBus;

    beforeAll(async () => {
      harness = await startHarness({
        bus: async (topics) => {
          bus = await makeBus(topics);
          return bus;
        },
      });
    });

    afterAll(async () => {
      await harness.stop();
      await bus.close();
    });

    const creditsOf = (account: string) =>
      harness.db.database.db
        .selectFrom("ledger_entries")
        .select(["kind", "amount", "reference"])
        .where("account_id", "=", account)
        .orderBy("id")
        .execute();
    const publish = (payment: SettledPayment) => {
      const event = encodePaymentSettled(payment);
      bus.publish(harness.topics.payments, event.key, event.value, event.headers);
    };

    it("credits a payment event delivered three times exactly once, in the ledger and in the hot view", async () => {
      const payment = settledPayment();
      await harness.store.load(payment.accountId, { balancePico: 0n, seq: 0n });
      for (let i = 0; i < 3; i++) publish(payment);
      // A later payment into the same account proves the three copies were consumed before we look.
      const marker = settledPayment({ accountId: payment.accountId, amountAtomic: "1" });
      publish(marker);
      const rows = await eventually(async () => {
        const found = await creditsOf(payment.accountId);
        expect(found).toHaveLength(2);
        return found;
      });
      expect(rows).toEqual([
        { kind: "purchase", amount: "1.000000000000", reference: paymentSettled(payment).paymentReference },
        { kind: "purchase", amount: "0.000001000000", reference: paymentSettled(marker).paymentReference },
      ]);
      await eventually(async () =>
        expect((await harness.store.view(payment.accountId))?.balancePico).toBe(1_000_001_000_000n),
      );
    });

    it("credits once when CreditPayment on two replicas at once and the event race", async () => {
      const payment = settledPayment({ amountAtomic: "250000" });
      const replica = await harness.startReplica();
      // The account's hot view is loaded (it has been admitted before), as a refused wallet's is.
      await harness.store.load(payment.accountId, { balancePico: 0n, seq: 0n });
      try {
        const request = { payment: paymentSettled(payment) };
        publish(payment);
        const answers = await Promise.all([
          harness.rpc.creditPayment(request),
          replica.rpc.creditPayment(request),
          harness.rpc.creditPayment(request),
          replica.rpc.creditPayment(request),
        ]);
        expect(answers.filter((answer) => answer.created).length).toBeLessThanOrEqual(1);
        // Right after the call returns, admission sees the credit (the paid request is admitted at once).
        expect((await harness.store.view(payment.accountId))?.balancePico).toBe(250_000_000_000n);
        publish(payment);
        const marker = settledPayment({ accountId: payment.accountId, amountAtomic: "1" });
        publish(marker);
        await eventually(async () => expect(await creditsOf(payment.accountId)).toHaveLength(2));
        const rows = await creditsOf(payment.accountId);
        expect(rows.filter((row) => row.reference === paymentSettled(payment).paymentReference)).toHaveLength(
          1,
        );
      } finally {
        await replica.stop();
      }
    });

    it("credits once when two consumers (two billing processes' handlers) take the same event at once", async () => {
      const payment = settledPayment({ amountAtomic: "300000" });
      const event = encodePaymentSettled(payment);
      const message = { topic: harness.topics.payments, partition: 0, offset: "0", ...event };
      const secondStore = harness.newRedisStore();
      const first = paymentsHandler({
        db: harness.db.database.db,
        store: harness.store,
        logger: silentLogger(),
      });
      const second = paymentsHandler({
        db: harness.db.database.db,
        store: secondStore,
        logger: silentLogger(),
      });
      await Promise.all([first(message), second(message), first(message), second(message)]);
      expect(await creditsOf(payment.accountId)).toEqual([
        { kind: "purchase", amount: "0.300000000000", reference: paymentSettled(payment).paymentReference },
      ]);
    });

    it("treats an EVM payer spelled in another letter case as the same payment", async () => {
      const payment = settledPayment();
      await harness.rpc.creditPayment({ payment: paymentSettled(payment) });
      const again = await harness.rpc.creditPayment({
        payment: paymentSettled({ ...payment, payer: payment.payer.toUpperCase().replace("0X", "0x") }),
      });
      expect(again.created).toBe(false);
      expect(await creditsOf(payment.accountId)).toHaveLength(1);
    });

    it("refuses a CreditPayment whose amounts disagree, crediting nothing", async () => {
      const payment = settledPayment();
      const forged = { ...paymentSettled(payment), amountPico: 5_000_000_000_000n };
      await expect(harness.rpc.creditPayment({ payment: forged })).rejects.toThrow(/disagrees/);
      await expect(harness.rpc.creditPayment({})).rejects.toThrow(/payment is required/);
      expect(await creditsOf(payment.accountId)).toEqual([]);
    });

    it("dead-letters a payment event whose reference is not its payment's, crediting nothing", async () => {
      const payment = settledPayment();
      const dead: string[] = [];
      const dlq = await bus.subscribe({
        topic: deadLetterTopic(harness.topics.payments, PAYMENTS_CONSUMER_GROUP),
        groupId: `dlq-reader-${randomUUID()}`,
        handler: async (message) => {
          dead.push(message.headers["x-error"] ?? "");
        },
      });
      const payload = { ...paymentSettled(payment), nonce: "0x01" };
      const bad = encodeEvent(PAYMENT_SETTLED_V1, payload, {
        accountId: payment.accountId,
        eventId: payload.paymentReference,
      });
      bus.publish(harness.topics.payments, bad.key, bad.value, bad.headers);
      await eventually(async () => expect(dead).toEqual([expect.stringMatching(/reference/)]));
      await dlq.stop();
      expect(await creditsOf(payment.accountId)).toEqual([]);
    });
  });
}
