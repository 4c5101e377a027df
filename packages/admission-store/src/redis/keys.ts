/**
 * Every key of one account shares the hash tag `{acct:<id>}`, so a script touching all of them runs
 * on one Redis Cluster slot. The prefix (before the tag) separates deployments and test runs.
 */
export function accountKeys(prefix: string, accountId: string): string[] {
  const base = `${prefix}{acct:${accountId}}`;
  return [
    `${base}:view`,
    `${base}:holds`,
    `${base}:expiry`,
    `${base}:pending`,
    `${base}:applied`,
    `${base}:keys`,
    `${base}:refkey`,
    `${base}:purchases`,
  ];
}

/** One counter per rate window, in the account's slot; it expires with its window. */
export function rateKey(prefix: string, accountId: string, name: string, windowStartMs: number): string {
  return `${prefix}{acct:${accountId}}:rate:${name}:${windowStartMs}`;
}

export function checkPrefix(prefix: string): string {
  if (/[{}]/.test(prefix)) throw new RangeError(`key prefix must not contain braces: ${prefix}`);
  return prefix;
}

/**
 * A key's spend window in the view: `<keyHash>@<windowStartMs>`, with `b` appended when BYOK costs count
 * (a key switching include_byok_in_limit gets a window of its own, loaded from the ledger).
 */
export function keyWindow(keyHash: string, windowStartMs: number, includeByok = false): string {
  return `${keyHash}@${windowStartMs}${includeByok ? "b" : ""}`;
}
