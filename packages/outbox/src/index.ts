export { outboxMigrations } from "./migrations.js";
export { type OutboxBusOptions, OutboxEventBus } from "./outbox-bus.js";
export { OUTBOX_SCHEMA, type OutboxTables } from "./schema.js";
export { holdOutboxWriterLock } from "./writer-lock.js";
