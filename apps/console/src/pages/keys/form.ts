import type { components, paths } from "@gw/client";

export type Key = components["schemas"]["Key"];
export type CreateKeyBody = paths["/api/v1/keys"]["post"]["requestBody"]["content"]["application/json"];
export type UpdateKeyBody =
  paths["/api/v1/keys/{hash}"]["patch"]["requestBody"]["content"]["application/json"];
export type LimitReset = "never" | "daily" | "weekly" | "monthly";

/** The key form's inputs as the user typed them (strings, as inputs hold them). */
export interface KeyForm {
  name: string;
  /** USD; empty: no credit limit. */
  limit: string;
  limitReset: LimitReset;
  /** A `datetime-local` value (wall time in the browser's zone); sent as UTC. Ignored when `neverExpires`. */
  expiresAt: string;
  /** The "Never expires" choice: no expiry on create; on edit, removes the key's expiry. */
  neverExpires: boolean;
  /** Comma- or newline-separated ids; empty: no restriction. */
  allowedProviders: string;
  allowedModels: string;
  includeByokInLimit: boolean;
  disabled: boolean;
}

/** The API field each form input sets, so a 400 naming a field is shown beside its input. */
export const FIELD_OF_INPUT: Record<keyof KeyForm, string> = {
  name: "name",
  limit: "limit",
  limitReset: "limit_reset",
  expiresAt: "expires_at",
  neverExpires: "expires_at",
  allowedProviders: "allowed_providers",
  allowedModels: "allowed_models",
  includeByokInLimit: "include_byok_in_limit",
  disabled: "disabled",
};

export type FormErrors = Partial<Record<keyof KeyForm, string>>;

export const EMPTY_FORM: KeyForm = {
  name: "",
  limit: "",
  limitReset: "never",
  expiresAt: "",
  neverExpires: true,
  allowedProviders: "",
  allowedModels: "",
  includeByokInLimit: false,
  disabled: false,
};

const MAX_LIMIT_USD = 1_000_000_000_000;

/**
 * A time zone as `Date#getTimezoneOffset` reports it: minutes from local wall time to UTC at `instant`
 * (-60 in Berlin in winter, -120 in summer). The offset of the instant itself, not today's, so an expiry
 * across a daylight-saving change shows and saves the wall time the user sees.
 */
export type ZoneOffset = (instant: Date) => number;

/** The browser's own zone. */
export const BROWSER_ZONE: ZoneOffset = (instant) => instant.getTimezoneOffset();

/** The form for an existing key (Edit). */
export function formFromKey(key: Key, zone: ZoneOffset = BROWSER_ZONE): KeyForm {
  return {
    name: key.name,
    limit: key.limit === null ? "" : String(key.limit),
    limitReset: key.limit_reset ?? "never",
    expiresAt: key.expires_at ? toLocalInput(key.expires_at, zone) : "",
    neverExpires: key.expires_at === null,
    allowedProviders: (key.allowed_providers ?? []).join(", "),
    allowedModels: (key.allowed_models ?? []).join(", "),
    includeByokInLimit: key.include_byok_in_limit,
    disabled: key.disabled,
  };
}

/** `"openai, anthropic\nmistral"` → `["openai", "anthropic", "mistral"]`; nothing → null (no restriction). */
export function parseList(text: string): string[] | null {
  const items = text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
  return items.length === 0 ? null : [...new Set(items)];
}

/** The checks the browser can make before asking the API (which checks again, and names the field). */
export function validate(form: KeyForm, now: Date = new Date(), zone: ZoneOffset = BROWSER_ZONE): FormErrors {
  const errors: FormErrors = {};
  const name = form.name.trim();
  if (name.length === 0) errors.name = "Enter a name.";
  else if (name.length > 200) errors.name = "A name has at most 200 characters.";
  if (form.limit.trim() !== "") {
    const limit = Number(form.limit);
    if (!Number.isFinite(limit) || limit < 0)
      errors.limit = "Enter an amount in USD, 0 or more, or leave empty.";
    else if (limit > MAX_LIMIT_USD) errors.limit = "The limit is at most 1,000,000,000,000 USD.";
  }
  if (!form.neverExpires) {
    const expires = fromLocalInput(form.expiresAt, zone);
    if (form.expiresAt === "") errors.expiresAt = "Enter a date and time, or choose Never expires.";
    else if (expires === null) errors.expiresAt = "Enter a date and time.";
    else if (Date.parse(expires) <= now.getTime()) errors.expiresAt = "Choose a time in the future.";
  }
  return errors;
}

/**
 * Edit's checks: as create's, except that an expiry left as it was is not checked (an expired key can
 * still be renamed or disabled; moving its expiry, or choosing Never expires, brings it back).
 */
export function validateEdit(
  key: Key,
  form: KeyForm,
  now: Date = new Date(),
  zone: ZoneOffset = BROWSER_ZONE,
): FormErrors {
  const errors = validate(form, now, zone);
  if (expiryChange(key, form, zone) === undefined) delete errors.expiresAt;
  return errors;
}

/** `POST /api/v1/keys`'s body: every field the API takes, unset ones left out. */
export function createBody(form: KeyForm, zone: ZoneOffset = BROWSER_ZONE): CreateKeyBody {
  const body: CreateKeyBody = {
    name: form.name.trim(),
    limit: parseLimit(form.limit),
    limit_reset: form.limitReset,
    allowed_providers: parseList(form.allowedProviders),
    allowed_models: parseList(form.allowedModels),
    include_byok_in_limit: form.includeByokInLimit,
  };
  if (!form.neverExpires) body.expires_at = utcOf(form.expiresAt, zone);
  return body;
}

/**
 * `PATCH /api/v1/keys/{hash}`'s body: only what changed from the key. An empty limit or list clears it
 * (null); so does Never expires for an expiry (the gateway's PATCH takes `expires_at`, beyond the spec).
 */
export function updateBody(key: Key, form: KeyForm, zone: ZoneOffset = BROWSER_ZONE): UpdateKeyBody {
  const before = formFromKey(key, zone);
  const body: UpdateKeyBody = {};
  if (form.name.trim() !== key.name) body.name = form.name.trim();
  if (form.disabled !== key.disabled) body.disabled = form.disabled;
  if (parseLimit(form.limit) !== key.limit) body.limit = parseLimit(form.limit);
  if (form.limitReset !== before.limitReset)
    body.limit_reset = form.limitReset === "never" ? null : form.limitReset;
  if (!sameList(parseList(form.allowedProviders), key.allowed_providers))
    body.allowed_providers = parseList(form.allowedProviders);
  if (!sameList(parseList(form.allowedModels), key.allowed_models))
    body.allowed_models = parseList(form.allowedModels);
  if (form.includeByokInLimit !== key.include_byok_in_limit)
    body.include_byok_in_limit = form.includeByokInLimit;
  const expiry = expiryChange(key, form, zone);
  if (expiry !== undefined) body.expires_at = expiry;
  return body;
}

/**
 * What the form does to the key's expiry: undefined = nothing (the input still shows the key's own
 * minute, so an expiry with seconds is kept exactly), null = remove it, else the new instant in UTC.
 */
export function expiryChange(
  key: Key,
  form: KeyForm,
  zone: ZoneOffset = BROWSER_ZONE,
): string | null | undefined {
  if (form.neverExpires) return key.expires_at === null ? undefined : null;
  if (key.expires_at !== null && form.expiresAt === toLocalInput(key.expires_at, zone)) return undefined;
  return utcOf(form.expiresAt, zone);
}

/** The form input a 400's `error.metadata.field` names (`allowed_models[2]` → allowedModels). */
export function inputOfField(field: string | undefined): keyof KeyForm | undefined {
  if (!field) return undefined;
  const base = field.split(/[.[]/)[0];
  const entry = Object.entries(FIELD_OF_INPUT).find(([, apiField]) => apiField === base);
  return entry ? (entry[0] as keyof KeyForm) : undefined;
}

/** An ISO instant as a `datetime-local` value (`2026-12-01T12:00`) on the wall clock of `zone`. */
export function toLocalInput(iso: string, zone: ZoneOffset = BROWSER_ZONE): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return new Date(date.getTime() - zone(date) * 60_000).toISOString().slice(0, 16);
}

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A `datetime-local` value (wall time in `zone`) as an ISO instant in UTC (`…Z`, what the API takes);
 * null when it is not a real date and time (`2026-02-30T10:00`, a half-typed value, "").
 */
export function fromLocalInput(value: string, zone: ZoneOffset = BROWSER_ZONE): string | null {
  const match = LOCAL_INPUT.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(wall);
  if (
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    return null;
  // The offset at the instant meant, found from a first guess (one step settles it away from a DST change).
  const guess = wall + zone(check) * 60_000;
  return new Date(wall + zone(new Date(guess)) * 60_000).toISOString();
}

function utcOf(local: string, zone: ZoneOffset): string {
  const iso = fromLocalInput(local, zone);
  // validate() refuses such a form before any body is built.
  if (iso === null) throw new Error(`not a date and time: ${JSON.stringify(local)}`);
  return iso;
}

function parseLimit(text: string): number | null {
  return text.trim() === "" ? null : Number(text);
}

function sameList(a: string[] | null, b: string[] | null): boolean {
  if (a === null || b === null) return a === b || (a?.length ?? 0) + (b?.length ?? 0) === 0;
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
