import { z } from "zod";

// What the database accepts, as validation: a query value zod accepted but PostgreSQL refuses (a date
// in year 0, 30 February, an id past int4) was a 500 (issue 33). Every schema and cursor decoder that
// hands a date or an integer id to the database checks it here, so the refusal is the route's own 400.

/** The largest PostgreSQL `integer` (int4): serial ids and every `integer` column. */
export const INT4_MAX = 2_147_483_647;

/** Years 1 to 9999: PostgreSQL has no year 0 (ISO `0000` is refused), and four digits end at 9999. */
const EARLIEST_MS = Date.parse("0001-01-01T00:00:00.000Z");
const LATEST_MS = Date.parse("9999-12-31T23:59:59.999Z");

/** A date the database stores: a real instant within years 1 to 9999 (UTC). */
export function isStorableDate(date: Date): boolean {
  const time = date.getTime();
  return !Number.isNaN(time) && time >= EARLIEST_MS && time <= LATEST_MS;
}

const ISO_FIELDS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?Z$/;

/**
 * A UTC ISO 8601 instant (`YYYY-MM-DDTHH:MM:SS[.fraction]Z`) whose fields name a real moment: no
 * 30 February or hour 24, which Date.parse rolls over into the next day or month but PostgreSQL
 * refuses, and no year 0. Cursors carry such text back from the client.
 */
export function isExactUtcInstant(text: string): boolean {
  const fields = ISO_FIELDS.exec(text);
  if (!fields) return false;
  const date = new Date(`${text.slice(0, 19)}Z`);
  if (!isStorableDate(date)) return false;
  return date.toISOString().slice(0, 19) === text.slice(0, 19);
}

/** A positive integer id as query text that fits int4 (`app_id`, any serial id). */
export const int4IdText = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, "expected a positive integer id")
  .refine((value) => Number(value) <= INT4_MAX, `expected a positive integer id up to ${INT4_MAX}`);

/**
 * An ISO 8601 date (`YYYY-MM-DD`) or date-time with a time zone, of a real calendar day, within years
 * 1 to 9999 in UTC (the bound PostgreSQL's timestamps are read within here).
 */
export const storableInstantText = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], {
    error: "expected an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone",
  })
  .refine((value) => isStorableDate(new Date(value)), "expected a date from year 1 to 9999");
