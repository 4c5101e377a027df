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
  /** A `datetime-local` value in the browser's time zone; empty: never expires. */
  expiresAt: string;
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
  allowedProviders: "",
  allowedModels: "",
  includeByokInLimit: false,
  disabled: false,
};

const MAX_LIMIT_USD = 1_000_000_000_000;

/** The form for an existing key (Edit). */
export function formFromKey(key: Key, timeZoneOffsetMinutes = new Date().getTimezoneOffset()): KeyForm {
  return {
    name: key.name,
    limit: key.limit === null ? "" : String(key.limit),
    limitReset: key.limit_reset ?? "never",
    expiresAt: key.expires_at ? toLocalInput(key.expires_at, timeZoneOffsetMinutes) : "",
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
export function validate(form: KeyForm, now: Date = new Date()): FormErrors {
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
  if (form.expiresAt !== "") {
    const expires = new Date(form.expiresAt);
    if (Number.isNaN(expires.getTime())) errors.expiresAt = "Enter a date and time.";
    else if (expires.getTime() <= now.getTime()) errors.expiresAt = "Choose a time in the future.";
  }
  return errors;
}

/** `POST /api/v1/keys`'s body: every field the API takes, unset ones left out. */
export function createBody(form: KeyForm): CreateKeyBody {
  const body: CreateKeyBody = {
    name: form.name.trim(),
    limit: parseLimit(form.limit),
    limit_reset: form.limitReset,
    allowed_providers: parseList(form.allowedProviders),
    allowed_models: parseList(form.allowedModels),
    include_byok_in_limit: form.includeByokInLimit,
  };
  if (form.expiresAt !== "") body.expires_at = new Date(form.expiresAt).toISOString();
  return body;
}

/**
 * `PATCH /api/v1/keys/{hash}`'s body: only what changed from the key (the API has no `expires_at` in
 * PATCH: a key's expiry is fixed at creation). An empty limit or list clears it (null).
 */
export function updateBody(key: Key, form: KeyForm): UpdateKeyBody {
  const before = formFromKey(key);
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
  return body;
}

/** The form input a 400's `error.metadata.field` names (`allowed_models[2]` → allowedModels). */
export function inputOfField(field: string | undefined): keyof KeyForm | undefined {
  if (!field) return undefined;
  const base = field.split(/[.[]/)[0];
  const entry = Object.entries(FIELD_OF_INPUT).find(([, apiField]) => apiField === base);
  return entry ? (entry[0] as keyof KeyForm) : undefined;
}

/** An ISO instant as a `datetime-local` value in the zone `offsetMinutes` (Date#getTimezoneOffset). */
export function toLocalInput(iso: string, offsetMinutes: number): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return new Date(date.getTime() - offsetMinutes * 60_000).toISOString().slice(0, 16);
}

function parseLimit(text: string): number | null {
  return text.trim() === "" ? null : Number(text);
}

function sameList(a: string[] | null, b: string[] | null): boolean {
  if (a === null || b === null) return a === b || (a?.length ?? 0) + (b?.length ?? 0) === 0;
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
