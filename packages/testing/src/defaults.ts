import { startKafkaContainer, startPostgresContainer, startRedisContainer } from "./containers.js";
import { launchEmbeddedPostgres, launchKafka, launchRedis } from "./launchers.js";
import {
  dockerAnswers,
  kafkaAnswers,
  postgresAnswers,
  recordedKafkaBrokers,
  redisAnswers,
} from "./probes.js";
import type { ResolveDeps } from "./resolve.js";

/** The real probes, containers and launchers behind `resolveServices`. */
export function defaultResolveDeps(root: string, log: (message: string) => void): ResolveDeps {
  return {
    env: process.env,
    answers: {
      postgres: (url) => postgresAnswers(url),
      redis: (url) => redisAnswers(url),
      kafka: (brokers) => kafkaAnswers(brokers),
    },
    recordedKafka: () => recordedKafkaBrokers(root),
    dockerAvailable: () => dockerAnswers(process.env),
    containers: {
      postgres: startPostgresContainer,
      redis: startRedisContainer,
      kafka: startKafkaContainer,
    },
    launchers: {
      postgres: launchEmbeddedPostgres,
      redis: launchRedis,
      kafka: () => launchKafka(root),
    },
    log,
  };
}
