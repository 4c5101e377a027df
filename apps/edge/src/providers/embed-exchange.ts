import { readAnswer, sendWire, type WireRequest } from "./exchange.js";
import { networkFailure, type UpstreamFailure } from "./failure.js";
import type { UpstreamHttp } from "./http.js";
import type { CanonicalEmbeddings, EmbedCall, EmbedResult } from "./types.js";

/** How one wire format asks for embeddings and reads the answer. */
export interface EmbedDialect {
  request(call: EmbedCall): WireRequest;
  parse(json: unknown): CanonicalEmbeddings | UpstreamFailure;
}

/** One embeddings call over a provider's pool, with the same failure rules as chat (see sendWire). */
export async function exchangeEmbeddings(
  http: UpstreamHttp,
  dialect: EmbedDialect,
  call: EmbedCall,
): Promise<EmbedResult> {
  const sent = await sendWire(http, () => dialect.request(call), call.signal);
  if (!sent.ok) return sent;
  const answer = await readAnswer(sent, dialect.parse);
  if (!answer.ok) return answer;
  if (answer.value.vectors.length !== call.input.length)
    return {
      ok: false,
      failure: networkFailure("protocol", "the provider returned the wrong number of embeddings"),
    };
  return { ok: true, status: sent.response.status, embeddings: answer.value };
}
