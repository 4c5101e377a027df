/** Longer than any provider's API key; a bound so a pasted file cannot become a header. */
export const MAX_PROVIDER_KEY_LENGTH = 4_096;

// Printable ASCII only: a CR or LF would split the header it is sent in, NUL and other controls are
// refused by Node's HTTP client (every later call with the key would fail), and no provider issues
// keys outside ASCII.
const HEADER_SAFE = /^[\x20-\x7e]+$/;

/**
 * Why a provider credential (an account's BYOK key, a configured `<PROVIDER>_API_KEY`) cannot be sent
 * in an HTTP header, or undefined when it can. The message never contains the key.
 */
export function providerKeyProblem(key: string): string | undefined {
  if (key.length === 0) return "must not be empty";
  if (key.length > MAX_PROVIDER_KEY_LENGTH) return `must be at most ${MAX_PROVIDER_KEY_LENGTH} characters`;
  if (!HEADER_SAFE.test(key)) {
    return "must be printable ASCII (no CR, LF, NUL or other control characters)";
  }
  return undefined;
}
