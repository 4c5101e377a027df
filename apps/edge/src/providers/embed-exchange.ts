import { UntranslatableError } from "../translate/untranslatable.js";
import { readFailure } from "./error-body.js";
import { httpFailure, networkFailure, type UpstreamFailure } from "./failure.js";
import { classifyError, isFailure, type UpstreamHttp } from "./http.js";
import type { CanonicalEmbeddings, EmbedCall, EmbedResult } from "./types.js";

/** How one wire format asks for embeddings and reads the answer. */
export interface EmbedDialect {
  request(call: EmbedCall): { path: string; headers: Record<string, string>; body: string };
  parse(json: unknown): CanonicalEmbeddings | UpstreamFailure;
}

/** One embeddings call over a provider's pool, with the same failure rules as chat (see exchangeChat). */
export async function exchangeEmbeddings(
  http: UpstreamHttp,
  dialect: EmbedDialect,
  call: EmbedCall,
): Promise<EmbedResult> {
  let wire: ReturnType<EmbedDialect["request"]>;
  try {
    wire = dialect.request(call);
  } catch (error) {
    if (error instanceof UntranslatableError)
      return { ok: false, failure: httpFailure(400, error.message, "untranslatable_request") };
    throw error;
  }
  const signals = http.signals(call.signal);
  const response = await http.send({ method: "POST", ...wire }, signals);
  if (isFailure(response)) return { ok: false, failure: response };
  if (response.status < 200 || response.status >= 300)
    return { ok: false, failure: await readFailure(response) };
  let json: unknown;
  try {
    json = await response.body.json();
  } catch (error) {
    return { ok: false, failure: classifyError(error, signals) };
  }
  const embeddings = dialect.parse(json);
  if ("retryable" in embeddings) return { ok: false, failure: embeddings };
  if (embeddings.vectors.length !== call.input.length)
    return {
      ok: false,
      failure: networkFailure("protocol", "the provider returned the wrong number of embeddings"),
    };
  return { ok: true, status: response.status, embeddings };
}
