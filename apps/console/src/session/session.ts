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
  storage.removeItem(PLAYGROUND_KEY);
}

export function rememberPlaygroundKey(secret: string, storage: Storage = window.sessionStorage): void {
  storage.setItem(PLAYGROUND_KEY, secret);
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
