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
  /**
   * Members of the body the gateway has no translation for (top-level names, or paths below such as
   * `output_config.effort` or `messages[0].content[1].citations`), left out of the canonical request: a provider of this format receives them as sent, and an
   * endpoint of any other format is excluded from the plan naming them (translateNative).
   */
  readonly untranslated?: readonly string[];
}

/** Field name → why: one line of a format's removal or refusal list. */
export type FieldReasons = Readonly<Record<string, string>>;

/** One format's pass-through: which caller headers go on, what is changed, and the wire request. */
export interface NativeRules {
  /** Lower-case header names forwarded from the caller. */
  readonly forwardedHeaders: readonly string[];
  /**
   * Top-level fields taken out of the caller's body before it is sent, with why: the gateway's own
   * (OpenRouter's routing and extension fields), which the provider does not know. The complete list.
   */
  readonly removedFields: FieldReasons;
  /**
   * Top-level fields the provider would take but the gateway refuses (400 `untranslatable_request`, before
   * admission), with why: they reach state on the gateway's shared provider account, or are priced above
   * what the gateway meters. Every other field the gateway does not know is passed through as sent.
   */
  readonly refusedFields: FieldReasons;
  /** The provider request built from the caller's body; absent = the dialect's own (OpenAI's is already the body). */
  wire?(native: NativeRequest, call: ChatCall, providerHeaders: Record<string, string>): WireRequest;
}
