/**
 * The signed-in session, kept in sessionStorage only: it lives as long as the tab, is never put in a URL
 * or a log, and is sent only as `Authorization: Bearer` by the typed client.
 */
export type CredentialKind = "management" | "operator" | "wallet";

export interface Session {
  credential: string;
  kind: CredentialKind;
  /** The credential belongs to an account (management key, wallet): the account pages are shown. */
  hasAccount: boolean;
  /** `GET /api/v1/admin/catalog` answered 200: the operator pages are shown. */
  isOperator: boolean;
  /** A wallet session: the CAIP-10 account and when its credential expires. */
  wallet?: { accountId: string; expiresAt: string };
}

const SESSION_KEY = "gw.console.session";
/** The secret of an API key created in this session, for the playground (inference needs an API key). */
const PLAYGROUND_KEY = "gw.console.playground-key";
/** Its hash, so deleting that key on the Keys page forgets it here too. */
const PLAYGROUND_KEY_HASH = "gw.console.playground-key-hash";

export function readSession(storage: Storage = window.sessionStorage): Session | null {
  const raw = storage.getItem(SESSION_KEY);
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isSession(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function writeSession(session: Session, storage: Storage = window.sessionStorage): void {
  storage.setItem(SESSION_KEY, JSON.stringify(session));
}

/** Signing out forgets everything the console kept: the credential and any API key secret. */
export function clearSession(storage: Storage = window.sessionStorage): void {
  storage.removeItem(SESSION_KEY);
  forgetPlaygroundKey(undefined, storage);
}

/** `hash`: the key's hash when it is known (a key created on the Keys page), to forget it on deletion. */
export function rememberPlaygroundKey(
  secret: string,
  hash?: string,
  storage: Storage = window.sessionStorage,
): void {
  storage.setItem(PLAYGROUND_KEY, secret);
  if (hash) storage.setItem(PLAYGROUND_KEY_HASH, hash);
  else storage.removeItem(PLAYGROUND_KEY_HASH);
}

/**
 * Forgets the playground's key: the one with `hash` only (a key deleted on the Keys page; another
 * remembered key stays), or whichever is kept when no hash is given (it was refused as unknown).
 */
export function forgetPlaygroundKey(hash?: string, storage: Storage = window.sessionStorage): void {
  if (hash !== undefined && storage.getItem(PLAYGROUND_KEY_HASH) !== hash) return;
  storage.removeItem(PLAYGROUND_KEY);
  storage.removeItem(PLAYGROUND_KEY_HASH);
}

export function readPlaygroundKey(storage: Storage = window.sessionStorage): string | null {
  return storage.getItem(PLAYGROUND_KEY);
}

function isSession(value: unknown): value is Session {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.credential === "string" &&
    record.credential.length > 0 &&
    (record.kind === "management" || record.kind === "operator" || record.kind === "wallet") &&
    typeof record.hasAccount === "boolean" &&
    typeof record.isOperator === "boolean"
  );
}
