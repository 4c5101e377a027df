import type { Endpoint } from "../types.js";

/** What a host's published policy says of prompts sent to its serverless open-weight models. */
export type DataPolicy = Pick<Endpoint, "isZdr" | "mayTrainOnData">;

const NOT_CLAIMED: DataPolicy = { isZdr: false, mayTrainOnData: false };

/**
 * Per host, from its own policy page (read 2026-11-27); a host not listed claims no ZDR and does not
 * train on paid API traffic (the catalogue's default, build.ts).
 * - Fireworks: "Zero Data Retention by default ... does not log or store prompt or generation data for
 *   any open models, without explicit user opt-in" (docs.fireworks.ai/guides/security_compliance/data_handling).
 * - DeepInfra: input "is not stored to disk", output "is not stored", "we do not train on your data"
 *   (docs.deepinfra.com/account/data-privacy), except the Google and Anthropic models it resells, which
 *   the open-host table does not list.
 * - Groq: "by default, Groq does not retain customer data for inference requests" but may retain it to
 *   protect platform reliability; ZDR proper is an organisation's Data Controls setting
 *   (console.groq.com/docs/your-data), so not claimed here.
 * - Together, Cerebras, Mistral: no default zero retention published for the serverless API; none
 *   trains on paid API traffic by its terms.
 */
export const DATA_POLICIES: Readonly<Record<string, DataPolicy>> = {
  fireworks: { isZdr: true, mayTrainOnData: false },
  deepinfra: { isZdr: true, mayTrainOnData: false },
};

export function dataPolicy(providerId: string): DataPolicy {
  return DATA_POLICIES[providerId] ?? NOT_CLAIMED;
}
