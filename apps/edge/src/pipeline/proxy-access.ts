import type { Principal } from "@gw/auth";
import { GatewayError } from "@gw/errors";
import type { CatalogSnapshot } from "../catalog/snapshot.js";
import { nativeModelId } from "../planning/native-model.js";
import type { PlannedAttempt } from "../planning/plan.js";
import type { ApiFormat } from "../providers/types.js";

/** The model a native call names, and the catalogue entry (with this provider's endpoint) behind it. */
export interface ProxyModel {
  /** As the client wrote it; undefined when the call names none (e.g. `GET /openai/v1/models`). */
  name: string | undefined;
  /** Set only when the catalogue lists the model with an endpoint at this provider: it is then priced. */
  priced: PlannedAttempt | undefined;
}

/** Gemini names the model in the path: `/v1beta/models/{model}:{method}`. */
const GEMINI_MODEL = /\/models\/([^/:?]+)(?::|$|\?)/;

export function nativeModelName(format: ApiFormat, path: string, body: unknown): string | undefined {
  if (format === "gemini") {
    const match = GEMINI_MODEL.exec(path);
    return match?.[1] === undefined ? undefined : checkModelName(decodeURIComponent(match[1]));
  }
  const model = typeof body === "object" && body !== null ? (body as { model?: unknown }).model : undefined;
  return typeof model === "string" && model !== "" ? checkModelName(model) : undefined;
}

const MAX_MODEL_NAME = 256;

/** A model name is looked up, logged and recorded: printable ASCII and bounded, or the call is a 400. */
function checkModelName(name: string): string {
  if (name.length <= MAX_MODEL_NAME && /^[\x21-\x7e]+$/.test(name)) return name;
  throw new GatewayError(
    "invalid_request",
    `model: expected printable characters without spaces, at most ${MAX_MODEL_NAME} of them`,
    { code: "invalid_request" },
  );
}

/**
 * A native call the catalogue cannot price at this provider would be served on the gateway's account
 * at no charge, so it is refused; a call that names no model (the model list) costs nothing.
 */
export function checkPriced(providerId: string, model: ProxyModel): void {
  if (model.name === undefined || model.priced) return;
  throw new GatewayError(
    "invalid_request",
    `model ${model.name} is not priced at provider ${providerId} on this gateway; the operator adds it to the catalogue to serve it`,
    { code: "model_not_priced" },
  );
}

/** Maps the native name to our catalogue (the provider's own names, dated names, or a full id). */
export function resolveProxyModel(
  snapshot: CatalogSnapshot,
  providerId: string,
  name: string | undefined,
): ProxyModel {
  if (name === undefined) return { name, priced: undefined };
  const model = snapshot.model(nativeModelId(snapshot, name, [providerId]));
  const endpoint = model?.endpoints.find((candidate) => candidate.providerId === providerId);
  return { name, priced: model && endpoint ? { model, endpoint } : undefined };
}

/**
 * The key's allow-lists on a surface that names its provider itself (edge README rule 3): the provider
 * must be allowed, and a key limited to certain models may only send calls that name one of them — a
 * call whose model is unknown to the catalogue, or names none, cannot be shown to be allowed.
 */
export function checkProxyAccess(principal: Principal, providerId: string, model: ProxyModel): void {
  const providers = principal.allowedProviders?.values;
  if (providers && !providers.includes(providerId)) {
    throw new GatewayError("permission", `this key may not use provider ${providerId}`, {
      code: "provider_not_allowed",
    });
  }
  const models = principal.allowedModels?.values;
  if (!models) return;
  const id = model.priced?.model.id;
  if (id === undefined || !models.includes(id)) {
    throw new GatewayError("permission", `this key may not use model ${id ?? model.name ?? "(none named)"}`, {
      code: "model_not_allowed",
    });
  }
}
