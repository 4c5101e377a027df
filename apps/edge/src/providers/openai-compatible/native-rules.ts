import type { NativeRules } from "../native-types.js";

/**
 * Chat completions → an OpenAI-compatible host: the canonical form is this format, and the canonical
 * request keeps every field the caller sent, so the dialect's own body is the pass-through. What it
 * changes, and why, is listed in one place: `chatRequestBody` in ./chat.ts (the model id, the gateway's
 * routing fields, stream usage always requested for metering, OpenRouter's `reasoning` for hosts without
 * it, signatures only another format can read). The caller's `OpenAI-Beta` header goes on.
 */
export const openAiNativeRules: NativeRules = {
  forwardedHeaders: ["openai-beta"],
  // The canonical request keeps every field: nothing needs deferring.
  nativeOnlyFields: [],
};
