import { findProvider } from "@gw/catalog";
import type { ChatRequest } from "../canonical/chat-request.js";
import { nativeRequestOf, unsendableTo } from "../providers/native.js";
import type { ProviderRegistry } from "../providers/registry.js";
import type { ApiFormat } from "../providers/types.js";
import { mediaRefusal } from "../translate/media-support.js";
import { refuseForeignFields } from "../translate/target-fields.js";
import { UntranslatableError } from "../translate/untranslatable.js";
import type { AccountProviders } from "./byok-credentials.js";
import type { Availability } from "./filters.js";
import { sentAsWritten } from "./inline-media-urls.js";

/**
 * `availability` that also leaves out a provider whose API format cannot carry the request (issue 12:
 * across formats nothing is dropped in silence): a native body's untranslated fields go to its own
 * format only, and a canonical field a translated format has no place for stays off it. The exclusion
 * names the field; when it leaves nothing, the request is the caller's 400 (plan.ts nothingLeft).
 */
export function translatableAvailability(
  availability: (providerId: string) => Availability,
  providers: ProviderRegistry,
  byok: AccountProviders,
  request: ChatRequest,
  canFetchMedia = false,
): (providerId: string) => Availability {
  const verdicts = new Map<ApiFormat, string | undefined>();
  return (providerId) => {
    const base = availability(providerId);
    // Left out for another reason (ignored by the request, above its price, …): that reason stands.
    if (!base.usable && base.code !== "provider_not_configured") return base;
    // A usable provider always has an adapter here; only an unconfigured one is looked up.
    const format =
      (byok.get(providerId)?.adapter ?? providers.get(providerId))?.apiFormat ??
      unconfiguredFormat(providerId);
    if (format === undefined) return base;
    if (!verdicts.has(format)) verdicts.set(format, whyNot(request, format, canFetchMedia));
    const reason = verdicts.get(format);
    return reason === undefined ? base : { usable: false, code: "untranslatable_request", reason };
  };
}

/**
 * The format a provider without credentials here would be sent in, from the catalogue: a request that
 * could not be sent to it even when configured is the caller's to fix (a 400 when nothing else is
 * left), not the operator's (503). Vertex's format depends on the model (Claude or Gemini): unknown.
 */
function unconfiguredFormat(providerId: string): ApiFormat | undefined {
  const format = findProvider(providerId)?.apiFormat;
  if (format === "azure") return "openai";
  return format === "vertex" ? undefined : format;
}

/**
 * Also the media a format cannot take (audio to Anthropic, an OpenAI file_id elsewhere, a URL a format
 * needs as bytes when this gateway does not fetch media): named by part, before admission.
 */
function whyNot(request: ChatRequest, format: ApiFormat, canFetchMedia: boolean): string | undefined {
  const native = unsendableTo(request, format);
  if (native !== undefined) return native;
  try {
    refuseForeignFields(request, format);
    // A same-format native body is sent as written: its provider judges its media.
    if (sentAsWritten(nativeRequestOf(request)?.format, format)) return undefined;
    return mediaRefusal(request, format, canFetchMedia);
  } catch (error) {
    if (error instanceof UntranslatableError) return error.message;
    throw error;
  }
}
