import { InProcessEventBus } from "@gw/events";
import { describeUsageConsumer } from "../test/usage-consumer.suite.js";

// TODO(@gw/kafka): add `describeUsageConsumer("Kafka", ...)` with a KafkaEventBus once that package lands.
describeUsageConsumer("the in-process bus", async () => new InProcessEventBus());
