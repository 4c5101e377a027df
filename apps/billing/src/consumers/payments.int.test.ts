import { InProcessEventBus } from "@gw/events";
import { ensureTopics, KafkaEventBus } from "@gw/kafka";
import { kafkaBrokers, uniqueName } from "@gw/testing";
import { describePaymentsConsumer } from "../test/payments-consumer.suite.js";

describePaymentsConsumer("the in-process bus", ["postgres", "redis"], async () => new InProcessEventBus());

describePaymentsConsumer("Kafka", ["postgres", "redis", "kafka"], async (topics) => {
  const brokers = kafkaBrokers();
  await ensureTopics(brokers, [topics.usage, topics.payments, topics.keyChanges]);
  return new KafkaEventBus({ brokers, clientId: uniqueName("billing-payments-test") });
});
