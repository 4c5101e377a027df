import type { IncomingHttpHeaders } from "node:http";
import { GatewayError } from "@gw/errors";
import type { ChatRequest } from "../canonical/chat-request.js";
import { UntranslatableError, untranslatable } from "../translate/untranslatable.js";
import { anthropicNativeRules } from "./anthropic/native-rules.js";
import type { WireDialect } from "./exchange.js";
import { geminiNativeRules } from "./google/native-rules.js";
import type { NativeRequest, NativeRules } from "./native-types.js";
import { openAiNativeRules } from "./openai-compatible/native-rules.js";
import type { ApiFormat } from "./types.js";

export type { NativeRequest, NativeRules } from "./native-types.js";

const RULES: Readonly<Record<ApiFormat, NativeRules>> = {
  anthropic: anthropicNativeRules,
  gemini: geminiNativeRules,
  openai: openAiNativeRules,
};

// Keyed by the canonical request object the pipeline carries from the route to the adapter, so no
// layer in between has to know about the native body.
const natives = new WeakMap<ChatRequest, NativeRequest>();

/**
 * Marks `request` as arriving natively in `native.format`; returns it. Only a body whose member names
 * are all plain identifiers is passed through: one with names no API has (Object's own property names,
 * control characters, `../`, `%ff`, spaces) would be admitted, recorded and only then refused upstream,
 * so it takes the translated path as before (which keeps only the fields it knows), or, when it carries
 * a field only the native API takes, is the caller's 400 before admission.
 */
export function withNativeRequest(request: ChatRequest, native: NativeRequest): ChatRequest {
  // The OpenAI surface's canonical request keeps every top-level field, so one no API has is refused here.
  const topLevel = Object.keys(native.body).find(
    (name) => name in Object.prototype || !PLAIN_NAME.test(name),
  );
  if (native.format === "openai" && topLevel !== undefined)
    throw new GatewayError("invalid_request", `${JSON.stringify(topLevel)}: unknown parameter`, {
      code: "invalid_request",
      metadata: { field: topLevel },
    });
  const bad = badMemberName(native.body, "body");
  if (bad === undefined) natives.set(request, native);
  else if ((native.untranslated ?? []).length > 0)
    throw new GatewayError("invalid_request", `${bad}: member name not allowed`, {
      code: "invalid_request",
      metadata: { field: bad },
    });
  return request;
}

// JSON Schema (`$ref`), Google (`@type`) and the APIs' own names all fit; nothing else is passed through.
const PLAIN_NAME = /^[A-Za-z_$@][A-Za-z0-9_$@.:-]*$/;

function badMemberName(value: unknown, path: string): string | undefined {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const bad = badMemberName(item, `${path}[${index}]`);
      if (bad) return bad;
    }
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  for (const [name, item] of Object.entries(value)) {
    if (name === "prototype" || name in Object.prototype || !PLAIN_NAME.test(name))
      return `${path}.${JSON.stringify(name)}`;
    const bad = badMemberName(item, `${path}.${name}`);
    if (bad) return bad;
  }
  return undefined;
}

export function nativeRequestOf(request: ChatRequest): NativeRequest | undefined {
  return natives.get(request);
}

/** The caller's headers a format forwards (its allow-list), lower-cased; repeated headers joined. */
export function forwardedHeaders(incoming: IncomingHttpHeaders, format: ApiFormat): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of RULES[format].forwardedHeaders) {
    const value = incoming[name];
    const text = Array.isArray(value) ? value.join(",") : value;
    if (typeof text === "string" && text.trim() !== "") headers[name] = text;
  }
  return headers;
}

/**
 * A provider's chat dialect that passes a same-format caller's request through: the native wire
 * request when its rules build one, with the caller's allow-listed headers; every other header is the
 * provider's (its credential can never be the caller's).
 */
export function nativeAware(
  format: ApiFormat,
  dialect: WireDialect,
  providerHeaders: Record<string, string>,
): WireDialect {
  const rules = RULES[format];
  return {
    ...dialect,
    request(call) {
      const native = nativeRequestOf(call.request);
      if (!native) return dialect.request(call);
      if (native.format !== format) {
        const fields = native.untranslated ?? [];
        if (fields.length > 0)
          untranslatable(
            fields.join(", "),
            `only ${native.format}'s own API takes it; the gateway has no translation`,
          );
        return dialect.request(call);
      }
      const wire = rules.wire ? rules.wire(native, call, providerHeaders) : dialect.request(call);
      // The allow-list again, whoever built `native`: no other caller header can reach the provider.
      const caller = Object.entries(native.headers).filter(([name]) => rules.forwardedHeaders.includes(name));
      const headers = {
        ...wire.headers,
        ...Object.fromEntries(caller),
        ...notForwarded(providerHeaders, rules),
      };
      return { ...wire, headers };
    },
  };
}

/** The provider's own headers a caller may not choose (its credential above all), so they always win. */
function notForwarded(providerHeaders: Record<string, string>, rules: NativeRules): Record<string, string> {
  return Object.fromEntries(
    Object.entries(providerHeaders).filter(([name]) => !rules.forwardedHeaders.includes(name.toLowerCase())),
  );
}

/**
 * The canonical form of a native body with documented top-level fields the gateway cannot translate
 * (the format's `nativeOnlyFields`): those are left out of the canonical request (it only plans, admits
 * and serves other formats) and listed, so a same-format provider still receives them and any other
 * provider refuses the request naming them. Anything else untranslatable stays the caller's 400.
 */
export function translateNative<B extends Record<string, unknown>>(
  format: ApiFormat,
  body: B,
  translate: (body: B) => ChatRequest,
): { chat: ChatRequest; untranslated: string[] } {
  const deferrable = RULES[format].nativeOnlyFields;
  const untranslated: string[] = [];
  let current: B = body;
  for (;;) {
    try {
      return { chat: translate(current), untranslated };
    } catch (error) {
      const field = error instanceof UntranslatableError ? error.what : undefined;
      if (field === undefined || !deferrable.includes(field) || !Object.hasOwn(current, field)) throw error;
      untranslated.push(field);
      const { [field]: _left, ...rest } = current;
      current = rest as B;
    }
  }
}
