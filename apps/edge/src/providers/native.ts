import type { IncomingHttpHeaders } from "node:http";
import { GatewayError } from "@gw/errors";
import type { ChatRequest } from "../canonical/chat-request.js";
import { UntranslatableError, untranslatable } from "../translate/untranslatable.js";
import { anthropicNativeRules } from "./anthropic/native-rules.js";
import { bedrockNativeRules } from "./bedrock/native-rules.js";
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
  bedrock: bedrockNativeRules,
};

// Keyed by the canonical request object the pipeline carries from the route to the adapter, so no
// layer in between has to know about the native body.
const natives = new WeakMap<ChatRequest, NativeRequest>();

/**
 * Marks `request` as arriving natively in `native.format`; returns it. The body then goes to a provider
 * of that format as sent (see nativeAware), whatever its member names: below the top level they are
 * the caller's data (JSON Schema properties, tool arguments, metadata keys) and the provider judges
 * them. Names no API has and no caller means are the caller's 400 before admission, on every surface,
 * rather than being admitted, recorded and only then refused upstream: at the top level, anything that
 * is not a plain identifier; anywhere, Object's own property names (`__proto__`, `constructor`, …) and
 * names with control characters or lone surrogates (they cannot be stored or logged as sent).
 */
export function withNativeRequest(request: ChatRequest, native: NativeRequest): ChatRequest {
  const topLevel = Object.keys(native.body).find((name) => !FIELD_NAME.test(name) || isReserved(name));
  if (topLevel !== undefined)
    throw new GatewayError("invalid_request", `${JSON.stringify(topLevel)}: unknown parameter`, {
      code: "invalid_request",
      metadata: { field: topLevel },
    });
  const bad = badMemberName(native.body, "body");
  if (bad !== undefined)
    throw new GatewayError("invalid_request", `${bad}: member name not allowed`, {
      code: "invalid_request",
      metadata: { field: bad },
    });
  natives.set(request, native);
  return request;
}

// Every top-level field of the three APIs is an identifier (snake_case or camelCase).
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// A name that cannot be stored or logged as sent: a control character (C0, C1, DEL) or, read as code
// points, a surrogate without its pair.
const UNSTORABLE = /[\p{Cc}\p{Cs}]/u;

function isReserved(name: string): boolean {
  return name === "prototype" || name in Object.prototype;
}

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
    if (isReserved(name) || UNSTORABLE.test(name)) return `${path}.${JSON.stringify(name)}`;
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
        // The planner already left such endpoints out; this keeps any other caller from sending one.
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
 * The canonical form of a native body. Whatever the translation refuses by name that is a member of the
 * body, at the top level or below (`generationConfig.responseModalities`, `output_config.effort`,
 * `messages[0].content[1].citations`), is left out of the canonical request (which only plans, admits and serves
 * other formats) and listed: a same-format provider still receives the body as sent, and an endpoint of
 * another format is excluded from the plan naming it (unsendableTo). The format's `refusedFields`, and
 * parts the translation refuses deeper inside (a document block, a server tool), stay the caller's 400.
 */
export function translateNative<B extends Record<string, unknown>>(
  format: ApiFormat,
  body: B,
  translate: (body: B) => ChatRequest,
): { chat: ChatRequest; untranslated: string[] } {
  const refused = RULES[format].refusedFields;
  const refusal = Object.keys(body).find((name) => Object.hasOwn(refused, name));
  if (refusal !== undefined) untranslatable(refusal, refused[refusal] ?? "");
  const untranslated: string[] = [];
  let current: B = body;
  for (;;) {
    try {
      return { chat: translate(current), untranslated };
    } catch (error) {
      const without = error instanceof UntranslatableError ? withoutField(current, error.what) : undefined;
      if (without === undefined) throw error;
      untranslated.push((error as UntranslatableError).what);
      current = without;
    }
  }
}

/**
 * `body` without the member `what` names (`name`, `name.key` or a deeper path such as
 * `messages[0].content[1].citations`, array steps as `[index]`), or undefined when it names no member of
 * an object in it (a whole array element, or a description such as `… (type document)`, stays a 400).
 */
function withoutField<B extends Record<string, unknown>>(body: B, what: string): B | undefined {
  if (!MEMBER_PATH.test(what)) return undefined;
  const steps = [...what.matchAll(/([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g)].map((match) =>
    match[1] !== undefined ? match[1] : Number(match[2]),
  );
  const last = steps.at(-1);
  if (typeof last !== "string") return undefined;
  return without(body, steps) as B | undefined;
}

// Identifier members and `[index]` steps, dot-separated, ending in a member name.
const MEMBER_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\[\d+\])*(\.[A-Za-z_][A-Za-z0-9_]*(\[\d+\])*)*$/;

/** A copy of `value` without the member at `steps` (copied along the path only); undefined if absent. */
function without(value: unknown, steps: readonly (string | number)[]): unknown {
  const [step, ...rest] = steps;
  if (typeof step === "number") {
    if (!Array.isArray(value) || step >= value.length) return undefined;
    const inner = without(value[step], rest);
    if (inner === undefined) return undefined;
    return value.map((item, index) => (index === step ? inner : item));
  }
  if (step === undefined || typeof value !== "object" || value === null || Array.isArray(value))
    return undefined;
  if (!Object.hasOwn(value, step)) return undefined;
  const { [step]: inner, ...kept } = value as Record<string, unknown>;
  if (rest.length === 0) return kept;
  const changed = without(inner, rest);
  return changed === undefined ? undefined : { ...kept, [step]: changed };
}

/**
 * Why a provider of `format` cannot be sent this request, or undefined when it can: the native body's
 * untranslated fields go only to its own format (the planner excludes other endpoints with this reason).
 */
export function unsendableTo(request: ChatRequest, format: ApiFormat): string | undefined {
  const native = nativeRequestOf(request);
  const fields = native?.untranslated ?? [];
  if (native === undefined || native.format === format || fields.length === 0) return undefined;
  return `${fields.join(", ")}: only ${native.format}'s own API takes it; the gateway has no translation`;
}
