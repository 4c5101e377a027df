import type { ProviderPreferences } from "./chat-request.js";

/** An embeddings request in canonical form, whichever surface it came from. */
export interface EmbedRequest {
  model: string;
  models?: string[] | undefined;
  provider?: ProviderPreferences | undefined;
  input: (string | number[])[];
  dimensions?: number | undefined;
  user?: string | undefined;
  taskType?: string | undefined;
  title?: string | undefined;
}
