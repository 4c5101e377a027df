/**
 * The label the API shows for a secret (prefix, first 3 and last 4 characters of the rest), computed
 * from the signed-in credential so the list can mark "this session's key" without sending or hashing
 * the secret. Two keys of one account sharing a label (28 random bits) is not a practical concern.
 */
export function labelOf(secret: string): string {
  const prefix = /^lr_[a-z]+_/.exec(secret)?.[0] ?? "";
  const body = secret.slice(prefix.length);
  return `${prefix}${body.slice(0, 3)}...${body.slice(-4)}`;
}
