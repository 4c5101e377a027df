import { GATEWAY_FIELD_REASONS } from "../gateway-fields.js";
import type { NativeRules } from "../native-types.js";

/**
 * No surface speaks Bedrock's own format, so no caller's body reaches Bedrock as sent: every request is
 * translated (Claude to Anthropic's body, other models to Converse). The rules exist so every format
 * has an entry; nothing is forwarded.
 */
export const bedrockNativeRules: NativeRules = {
  forwardedHeaders: [],
  removedFields: GATEWAY_FIELD_REASONS,
  refusedFields: {},
};
