import { InProcessEventBus } from "@gw/events";
import { ensureTopics, KafkaEventBus } from "@gw/kafka";
import { kafkaBrokers, uniqueName } from "@gw/testing";
import { describeUsageConsumer } from "../test/usage-consumer.suite.js";

describeUsageConsumer("the in-process bus", ["postgres", "redis"], async () => new InProcessEventBus());

describeUsageConsumer("Kafka", ["postgres", "redis", "kafka"], async (topics) => {
  const brokers = kafkaBrokers();
  await ensureTopics(brokers, [topics.usage, topics.payments, topics.keyChanges]);
  return new KafkaEventBus({ brokers, clientId: uniqueName("billing-test") });
});
