import type { WireRequest } from "./exchange.js";
import type { ApiFormat, ChatCall } from "./types.js";

/**
 * The caller's own request on a surface that speaks a provider's format (Anthropic `/v1/messages`, the
 * Gemini surface, chat completions). When an attempt goes to a provider of that same format, the
 * provider receives this body as sent, changed only as its `native-rules.ts` lists (issue 12: native to
 * native is a pass-through); any other provider gets the canonical request translated, as before.
 */
export interface NativeRequest {
  readonly format: ApiFormat;
  /** The parsed JSON body exactly as the caller sent it, fields the gateway does not know included. */
  readonly body: Readonly<Record<string, unknown>>;
  /** The caller's headers on the format's allow-list (never a credential). */
  readonly headers: Readonly<Record<string, string>>;
  /** Gemini: the API version of the caller's path (`v1` or `v1beta`). */
  readonly apiVersion?: string;
  /** Top-level fields only the same format can carry (see translateNative): other formats refuse them. */
  readonly untranslated?: readonly string[];
}

/** One format's pass-through: which caller headers go on, and the wire request, when it has its own. */
export interface NativeRules {
  /** Lower-case header names forwarded from the caller. */
  readonly forwardedHeaders: readonly string[];
  /**
   * Documented top-level fields of this format the gateway does not translate: they reach a provider of
   * this format and make any other refuse (translateNative). Any other unknown name stays a 400 before
   * admission, as do fields that reach state on the gateway's shared account or raise the price.
   */
  readonly nativeOnlyFields: readonly string[];
  /** The provider request built from the caller's body; absent = the dialect's own (OpenAI's is already the body). */
  wire?(native: NativeRequest, call: ChatCall, providerHeaders: Record<string, string>): WireRequest;
}
