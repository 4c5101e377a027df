import type { Endpoint, InputModality, Model, ModelKind, Quantization, RequestLimit } from "../types.js";

export interface ModelInput {
  readonly id: string;
  readonly name: string;
  readonly kind: ModelKind;
  readonly createdUnix: bigint;
  readonly endpoints: readonly Endpoint[];
  readonly modelLimit?: RequestLimit;
  readonly aliases?: readonly string[];
}

/**
 * Derives what follows from the id and endpoints, so the data cannot contradict itself: the author is the id's
 * prefix, `isFree` is the `:free` suffix, and the model's context is the largest any endpoint offers.
 */
export function model(input: ModelInput): Model {
  const slash = input.id.indexOf("/");
  if (slash <= 0) throw new Error(`model id must be <author>/<slug>: ${input.id}`);
  return {
    id: input.id,
    name: input.name,
    author: input.id.slice(0, slash),
    kind: input.kind,
    createdUnix: input.createdUnix,
    contextLength: Math.max(0, ...input.endpoints.map((e) => e.contextLength)),
    isFree: input.id.endsWith(":free"),
    endpoints: input.endpoints,
    modelLimit: input.modelLimit ?? null,
    aliases: input.aliases ?? [],
  };
}

export interface EndpointInput
  extends Omit<Endpoint, "quantization" | "isZdr" | "mayTrainOnData" | "inputModalities"> {
  readonly quantization?: Quantization;
  /** Absent = text only: a modality is claimed only where a source says the model reads it. */
  readonly inputModalities?: readonly InputModality[];
  readonly isZdr?: boolean;
  readonly mayTrainOnData?: boolean;
}

/**
 * Providers of closed models publish no quantization and ZDR only by separate agreement, so both default to
 * "not claimed" rather than a guess. The paid APIs in the catalogue do not train on API traffic by their
 * published terms, so `mayTrainOnData` defaults to false; free tiers that do say so set it.
 */
export function endpoint(input: EndpointInput): Endpoint {
  return {
    ...input,
    quantization: input.quantization ?? null,
    isZdr: input.isZdr ?? false,
    mayTrainOnData: input.mayTrainOnData ?? false,
    inputModalities: input.inputModalities ?? ["text"],
  };
}
