import type { Database } from "@gw/db";

type Pool = Database<unknown>["pool"];

/**
 * The outbox's ids follow commit order only while one process writes it (one insert in flight):
 * two gateways on one DATABASE_URL without Kafka would interleave their inserts and a reader could
 * skip a row committed late. So a gateway holds a session advisory lock on its own connection for
 * as long as its outbox runs, and a second one is refused at start with a clear message. A process
 * killed a moment ago may still hold it until PostgreSQL notices its connection is gone, so the
 * lock is tried for `waitMs` first. Resolves to the release.
 *
 * The held connection is out of the pool, so no pool listener hears its errors: when its session ends
 * under it (PostgreSQL stopping first, as the embedded server's own exit hook does on SIGTERM, or the
 * connection dropping), the error goes to `onSessionLost` instead of crashing the process as an
 * unhandled 'error' event. The lock ends with the session.
 */
export async function holdOutboxWriterLock(
  pool: Pool,
  schema: string,
  onSessionLost: (error: Error) => void,
  waitMs = 10_000,
): Promise<() => Promise<void>> {
  const client = await pool.connect();
  client.on("error", onSessionLost);
  try {
    const deadline = Date.now() + waitMs;
    let locked = false;
    for (;;) {
      const result = await client.query<{ locked: boolean }>(
        "select pg_try_advisory_lock(hashtext($1)) as locked",
        [`model-gateway outbox ${schema}`],
      );
      locked = result.rows[0]?.locked === true;
      if (locked || Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (!locked)
      throw new Error(
        `another gateway process already uses the event outbox in this database (schema ${schema}): run one embedded gateway per database, or set KAFKA_BROKERS`,
      );
  } catch (error) {
    client.off("error", onSessionLost);
    client.release();
    throw error;
  }
  return async () => {
    // Ending the session releases the lock.
    client.release(true);
  };
}
