import type { Started } from "./launchers.js";

// Images pinned to the versions production uses. testcontainers is imported lazily: it is only
// loaded once a Docker engine has answered.
const POSTGRES_IMAGE = "postgres:17-alpine";
const REDIS_IMAGE = "redis:7-alpine";
// The testcontainers Kafka module drives Confluent's images; cp-kafka 7.9 is Apache Kafka 3.9.
const KAFKA_IMAGE = "confluentinc/cp-kafka:7.9.0";
const KAFKA_PORT = 9093;

export async function startPostgresContainer(): Promise<Started> {
  const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
  const container = await new PostgreSqlContainer(POSTGRES_IMAGE).start();
  return {
    url: container.getConnectionUri(),
    detail: `testcontainers ${POSTGRES_IMAGE}`,
    stop: async () => {
      await container.stop();
    },
  };
}

export async function startRedisContainer(): Promise<Started> {
  const { RedisContainer } = await import("@testcontainers/redis");
  const container = await new RedisContainer(REDIS_IMAGE).start();
  return {
    url: container.getConnectionUrl(),
    detail: `testcontainers ${REDIS_IMAGE}`,
    stop: async () => {
      await container.stop();
    },
  };
}

export async function startKafkaContainer(): Promise<Started> {
  const { KafkaContainer } = await import("@testcontainers/kafka");
  const container = await new KafkaContainer(KAFKA_IMAGE).withKraft().start();
  return {
    url: `${container.getHost()}:${container.getMappedPort(KAFKA_PORT)}`,
    detail: `testcontainers ${KAFKA_IMAGE}`,
    stop: async () => {
      await container.stop();
    },
  };
}
