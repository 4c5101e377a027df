/**
 * One native endpoint the provider proxy forwards: the method, the path relative to the provider's API
 * base (matched case-exact on the normalised path), and an example the tests call it with. Anything not
 * on a provider's list is refused before any upstream contact (pipeline/proxy-path.ts).
 */
export interface ProxyEndpoint {
  method: "GET" | "POST";
  pattern: RegExp;
  example: string;
}

/** A path segment naming a model or another id: no separators (dot segments are refused before matching). */
export const ID_SEGMENT = "[A-Za-z0-9][A-Za-z0-9._-]*";
