export { isCI } from "./ci.js";
export { createTestDatabase, type TestDatabase, type TestDatabaseOptions } from "./database.js";
export {
  describeWith,
  itWith,
  kafkaBrokers,
  missingServices,
  serviceUrl,
  testServices,
} from "./helpers.js";
export { type GroupProgress, groupProgress } from "./kafka-offsets.js";
export type { NotLaunched, Started } from "./launchers.js";
export { type MigratedTestDatabase, migratedTestDatabase } from "./migrated-database.js";
export { uniqueName } from "./names.js";
export { dockerAnswers, kafkaAnswers, portOpen, postgresAnswers, redisAnswers } from "./probes.js";
export { repoRoot } from "./repo-root.js";
export {
  type Resolution,
  type ResolveDeps,
  type ResolvedRun,
  resolveService,
  resolveServices,
} from "./resolve.js";
export * from "./services.js";
export { type SkippedTest, type SkipReport, skipReport } from "./skip-policy.js";
