import { type ListPrice, listPrice, unixDay } from "../pricing.js";
import type { Endpoint, InputModality, Model, Quantization } from "../types.js";
import { endpoint, model } from "./build.js";
import { dataPolicy } from "./data-policy.js";
import { OPEN_WEIGHTS_CHAT } from "./parameters.js";

/** One host's endpoint of an open-weight model (open-hosts-sample.ts, generated). */
export interface HostedEndpoint {
  readonly provider: string;
  readonly upstream: string;
  readonly context: number;
  readonly output: number;
  readonly price: ListPrice;
  readonly tools: boolean;
  readonly schema: boolean;
  readonly reasoning: boolean;
  readonly quantization?: Quantization;
  /** What the host's model reads beyond text (LiteLLM's supports_* flags); absent = text only. */
  readonly modalities?: readonly InputModality[];
}

/** One open-weight model under OpenRouter's id, with every host of the dated file that serves it. */
export interface HostedModel {
  readonly id: string;
  readonly name: string;
  readonly endpoints: readonly HostedEndpoint[];
}

/**
 * Adds the open-weight hosts to the catalogue: a model already there gains the endpoints of hosts it does
 * not list yet (a hand-kept endpoint wins), a new one is added whole, dated by the file's day.
 */
export function withHosts(
  models: readonly Model[],
  hosted: readonly HostedModel[],
  fileDay: string,
): Model[] {
  const result = [...models];
  for (const entry of hosted) {
    const index = result.findIndex((m) => m.id === entry.id);
    const existing = result[index];
    if (existing === undefined) {
      result.push(hostedModel(entry, fileDay));
      continue;
    }
    const served = new Set(existing.endpoints.map((e) => e.providerId));
    const added = entry.endpoints.filter((e) => !served.has(e.provider)).map(hostedEndpoint);
    const endpoints = [...existing.endpoints, ...added];
    const contextLength = Math.max(...endpoints.map((e) => e.contextLength));
    result[index] = { ...existing, endpoints, contextLength };
  }
  return result;
}

function hostedModel(entry: HostedModel, fileDay: string): Model {
  return model({
    id: entry.id,
    name: entry.name,
    kind: "chat",
    createdUnix: unixDay(fileDay),
    endpoints: entry.endpoints.map(hostedEndpoint),
  });
}

function hostedEndpoint(entry: HostedEndpoint): Endpoint {
  return endpoint({
    providerId: entry.provider,
    upstreamModel: entry.upstream,
    contextLength: entry.context,
    maxCompletionTokens: entry.output,
    pricing: listPrice(entry.price),
    supportedParameters: parameters(entry),
    ...(entry.quantization ? { quantization: entry.quantization } : {}),
    ...(entry.modalities ? { inputModalities: entry.modalities } : {}),
    ...dataPolicy(entry.provider),
  });
}

/** The open-weight host set, without tools or schemas where the file's flags say the host lacks them. */
function parameters(entry: HostedEndpoint): readonly string[] {
  const list = OPEN_WEIGHTS_CHAT.filter(
    (p) =>
      (entry.tools || (p !== "tools" && p !== "tool_choice")) && (entry.schema || p !== "response_format"),
  );
  return entry.reasoning ? [...list, "reasoning", "include_reasoning"] : list;
}
