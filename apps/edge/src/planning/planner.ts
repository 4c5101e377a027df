import type { Principal } from "@gw/auth";
import { GatewayError } from "@gw/errors";
import { type ChatRequest, requestedMaxTokens, withinOutputCap } from "../canonical/chat-request.js";
import { middleOut } from "../canonical/middle-out.js";
import { requestedParameters } from "../canonical/parameters.js";
import { promptText, typicalPromptTokens } from "../canonical/prompt-text.js";
import type { CatalogHolder } from "../catalog/catalog-holder.js";
import { type MediaFetcher, refuseMediaFetch } from "../media/fetcher.js";
import { httpFailure } from "../providers/failure.js";
import type { ProviderRegistry } from "../providers/registry.js";
import type { ProviderAdapter, ProxyTransport } from "../providers/types.js";
import { UntranslatableError } from "../translate/untranslatable.js";
import { chatAvailability, embeddingsAvailability } from "./availability.js";
import type { AccountProviders, ByokProviders } from "./byok-credentials.js";
import { preferByok, withByok } from "./byok-order.js";
import { type Availability, middleOutBudget, type RequestRoom } from "./filters.js";
import type { EndpointHealth } from "./health.js";
import { inlineMediaUrls, MediaPartRefused } from "./inline-media-urls.js";
import { requestedModalities } from "./modalities.js";
import { type PlannedAttempt, planRoute, type RoutePlan } from "./plan.js";
import { translatableAvailability } from "./translatable.js";

export interface PlannerDeps {
  catalog: CatalogHolder;
  providers: ProviderRegistry;
  /** The accounts' own provider keys (BYOK); absent = the gateway's keys only. */
  byok: ByokProviders | undefined;
  health: EndpointHealth;
  /** Uniform in [0, 1), for the weighted provider draw. */
  random: () => number;
  /** Fetches a media URL a target needs as bytes; absent = refused (such endpoints are left out). */
  mediaFetcher?: MediaFetcher | undefined;
}

export interface RouteRequest {
  principal: Principal;
  /** What routing reads of the request (model, fallbacks, provider preferences, parameters), in canonical form. */
  request: ChatRequest;
  kind: "chat" | "embedding";
  /** `transforms: ["middle-out"]`: endpoints the prompt does not fit serve it compressed (OpenRouter's rule). */
  middleOut?: boolean | undefined;
}

/** A planned request: its attempts in order, and the adapter that sends each with the credential it names. */
export interface Route {
  attempts: readonly PlannedAttempt[];
  adapterFor(attempt: PlannedAttempt): ProviderAdapter | undefined;
}

const NO_BYOK: AccountProviders = new Map();

/**
 * The one place a request is routed: the catalogue snapshot, the key's allow-lists, provider health and
 * the account's own provider keys (BYOK first within each model, api-decisions "Routing") make the plan.
 */
export class Planner {
  constructor(private readonly deps: PlannerDeps) {}

  /** The ordered attempts with the account's own keys; throws 4xx/503 when no attempt is left. */
  async route(input: RouteRequest): Promise<Route> {
    const byok = await this.accountProviders(input.principal.accountId);
    const available = withByok(this.availability(input.kind), byok, input.kind);
    const fetcher = this.deps.mediaFetcher ?? refuseMediaFetch;
    const canFetch = fetcher !== refuseMediaFetch;
    const availability =
      input.kind === "chat"
        ? translatableAvailability(available, this.deps.providers, byok, input.request, canFetch)
        : available;
    const plan = this.plan(input, availability, true);
    // The gateway's own keys, for the fallback after a failing BYOK key (what the plan would be without it).
    const gatewayKeys =
      input.kind === "chat"
        ? translatableAvailability(
            this.availability(input.kind),
            this.deps.providers,
            NO_BYOK,
            input.request,
            canFetch,
          )
        : this.availability(input.kind);
    const ordered = preferByok(plan.attempts, byok, (providerId) => gatewayKeys(providerId).usable);
    const room = input.kind === "chat" ? requestRoom(input) : undefined;
    const attempts = room?.middleOut ? ordered.map((attempt) => compressedOn(attempt, room)) : ordered;
    const { providers } = this.deps;
    return {
      attempts,
      adapterFor: (attempt) =>
        forEndpoint(
          attempt.byok
            ? byok.get(attempt.endpoint.providerId)?.adapter
            : providers.get(attempt.endpoint.providerId),
          attempt,
          room,
          fetcher,
        ),
    };
  }

  /**
   * The plan on the gateway's own keys, with no lookup: whether the model exists and the key may use it
   * (count-tokens answers without calling a provider).
   */
  check(input: RouteRequest): RoutePlan {
    return this.plan(input, this.availability(input.kind));
  }

  /** The provider proxy's transport: the account's own key for the provider first, else the gateway's. */
  async proxyTransport(
    accountId: string,
    providerId: string,
  ): Promise<{ transport: ProxyTransport; isByok: boolean }> {
    const own = (await this.accountProviders(accountId)).get(providerId)?.adapter.proxy;
    if (own) return { transport: own, isByok: true };
    const gateway = this.deps.providers.get(providerId)?.proxy;
    if (gateway) return { transport: gateway, isByok: false };
    throw new GatewayError(
      "service_unavailable",
      `provider ${providerId} is not configured on this gateway`,
      {
        code: "no_available_provider",
      },
    );
  }

  /** `withRoom`: leave out endpoints the prompt and answer do not fit (not for token counting). */
  private plan(
    input: RouteRequest,
    availability: (providerId: string) => Availability,
    withRoom = false,
  ): RoutePlan {
    const { request, principal } = input;
    return planRoute({
      snapshot: this.deps.catalog.require(),
      kind: input.kind,
      model: request.model,
      fallbacks: request.models ?? [],
      preferences: request.provider,
      requestedParameters: requestedParameters(request),
      modalities: input.kind === "chat" ? requestedModalities(request) : [],
      room: withRoom && input.kind === "chat" ? requestRoom(input) : undefined,
      allowedModels: principal.allowedModels?.values,
      allowedProviders: principal.allowedProviders?.values,
      availability,
      random: this.deps.random,
      health: this.deps.health,
    });
  }

  private availability(kind: RouteRequest["kind"]): (providerId: string) => Availability {
    return kind === "embedding"
      ? embeddingsAvailability(this.deps.providers)
      : chatAvailability(this.deps.providers);
  }

  /** The account's own provider keys (BYOK), by provider id; none without a BYOK source. */
  accountProviders(accountId: string): Promise<AccountProviders> {
    return this.deps.byok ? this.deps.byok.forAccount(accountId) : Promise.resolve(NO_BYOK);
  }
}

/** The estimated prompt and the requested output a chat request needs room for. */
function requestRoom(input: RouteRequest): RequestRoom {
  const { request } = input;
  return {
    promptTokens: typicalPromptTokens(promptText(request)),
    maxTokens: requestedMaxTokens(request),
    middleOut: input.middleOut === true,
  };
}

/** The attempt marked `middle-out` when its endpoint serves the prompt compressed (recorded per attempt). */
function compressedOn(attempt: PlannedAttempt, room: RequestRoom): PlannedAttempt {
  return middleOutBudget(attempt.endpoint, room) === undefined
    ? attempt
    : { ...attempt, transforms: ["middle-out"] };
}

/**
 * The adapter with the attempt's endpoint facts on every chat call: its `supported_parameters`, so an
 * OpenAI-compatible host is not sent sampling parameters it does not list (dropped as OpenRouter does),
 * and its output cap, to which a larger `max_tokens` is lowered (see `withinOutputCap`). Media URLs the
 * endpoint's format needs as bytes are fetched first; a refused fetch is the caller's 400 naming the part.
 */
function forEndpoint(
  adapter: ProviderAdapter | undefined,
  attempt: PlannedAttempt,
  room: RequestRoom | undefined,
  fetcher: MediaFetcher,
): ProviderAdapter | undefined {
  const chat = adapter?.chat;
  if (!adapter || !chat) return adapter;
  const supportedParameters = attempt.endpoint.supportedParameters;
  const outputCap = attempt.endpoint.maxCompletionTokens;
  const budget =
    room && attempt.transforms?.includes("middle-out") ? middleOutBudget(attempt.endpoint, room) : undefined;
  const complete: typeof chat.complete = async (call) => {
    let request: ChatRequest;
    try {
      request = await inlineMediaUrls(call.request, adapter.apiFormat, fetcher);
    } catch (error) {
      // A malformed part is named by the plan's verdict first; this keeps any other path a 400, not a 502.
      if (error instanceof MediaPartRefused || error instanceof UntranslatableError)
        return { ok: false, failure: httpFailure(400, error.message, "untranslatable_request") };
      throw error;
    }
    return chat.complete({
      ...call,
      supportedParameters,
      outputCap,
      request: withinOutputCap(budget === undefined ? request : middleOut(request, budget), outputCap),
    });
  };
  return { ...adapter, chat: { complete } };
}
