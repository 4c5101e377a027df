import type { Logger } from "@gw/logger";
import { Kafka, type RetryOptions } from "kafkajs";
import { kafkajsLevel, pinoLogCreator } from "./log.js";

export interface ClientOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
  connectionTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** kafkajs' own retries inside one call; the bus adds its own loop around sends. */
  retry?: RetryOptions;
}

export function createKafka(options: ClientOptions): Kafka {
  return new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    connectionTimeout: options.connectionTimeoutMs ?? 3000,
    requestTimeout: options.requestTimeoutMs ?? 30_000,
    retry: options.retry ?? { initialRetryTime: 100, maxRetryTime: 2000, retries: 5 },
    logLevel: kafkajsLevel(options.logger),
    logCreator: pinoLogCreator(options.logger),
  });
}
