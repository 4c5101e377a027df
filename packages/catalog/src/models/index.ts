import type { Model } from "../types.js";
import { ANTHROPIC_MODELS } from "./anthropic.js";
import { AZURE_ENDPOINTS } from "./azure.js";
import { BEDROCK_ENDPOINTS } from "./bedrock.js";
import { BEDROCK_CONVERSE_ENDPOINTS } from "./bedrock-converse.js";
import { withCloudEndpoints } from "./cloud.js";
import { DEMO_MODELS } from "./demo.js";
import { FREE_MODELS } from "./free.js";
import { GOOGLE_MODELS } from "./google.js";
import { withHosts } from "./hosted.js";
import { LITELLM_SAMPLE, LITELLM_SAMPLE_DATE } from "./litellm-sample.js";
import { OPEN_HOSTS, OPEN_HOSTS_DATE } from "./open-hosts-sample.js";
import { OPEN_WEIGHT_MODELS } from "./open-weights.js";
import { OPENAI_MODELS } from "./openai.js";
import { withOpenRouterIds } from "./openrouter-ids.js";
import { withSample } from "./sampled.js";
import { VERTEX_ENDPOINTS } from "./vertex.js";

/**
 * The bundled seed: the hand-kept models first (their ids, prices and parameters are what the tests and
 * fakes rely on), then every chat and embedding model of the dated LiteLLM sample they do not already
 * serve, then the open-weight models on every host of the dated full file that serves them, then the
 * demo's. The clouds' endpoints (Vertex AI, Azure OpenAI, Amazon Bedrock: Claude, and open-weight
 * models through Converse) are added to the models they serve, and every model also answers to OpenRouter's id for it.
 */
export const MODELS: readonly Model[] = [
  ...withOpenRouterIds(
    withCloudEndpoints(
      withHosts(
        withSample(
          [...OPENAI_MODELS, ...ANTHROPIC_MODELS, ...GOOGLE_MODELS, ...OPEN_WEIGHT_MODELS, ...FREE_MODELS],
          LITELLM_SAMPLE,
          LITELLM_SAMPLE_DATE,
        ),
        OPEN_HOSTS,
        OPEN_HOSTS_DATE,
      ),
      [...VERTEX_ENDPOINTS, ...AZURE_ENDPOINTS, ...BEDROCK_ENDPOINTS, ...BEDROCK_CONVERSE_ENDPOINTS],
    ),
  ),
  ...DEMO_MODELS,
];
