import { deadLetterTopic, InProcessEventBus } from "@gw/events";
import { ensureTopics, KafkaEventBus } from "@gw/kafka";
import { kafkaBrokers, uniqueName } from "@gw/testing";
import { describeUsageConsumer } from "../test/usage-consumer.suite.js";
import { USAGE_GROUP_ID } from "./usage.js";

describeUsageConsumer("the in-process bus", ["postgres"], async () => new InProcessEventBus(), 3_000);

describeUsageConsumer(
  "Kafka",
  ["postgres", "kafka"],
  async (topics) => {
    const brokers = kafkaBrokers();
    await ensureTopics(brokers, [
      topics.usage,
      topics.keyChanges,
      deadLetterTopic(topics.usage, USAGE_GROUP_ID),
    ]);
    return new KafkaEventBus({ brokers, clientId: uniqueName("generations-test") });
  },
  30_000,
);
