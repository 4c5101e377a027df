import type { Model } from "../types.js";
import { ANTHROPIC_MODELS } from "./anthropic.js";
import { DEMO_MODELS } from "./demo.js";
import { GOOGLE_MODELS } from "./google.js";
import { OPEN_WEIGHT_MODELS } from "./open-weights.js";
import { OPENAI_MODELS } from "./openai.js";

export const MODELS: readonly Model[] = [
  ...OPENAI_MODELS,
  ...ANTHROPIC_MODELS,
  ...GOOGLE_MODELS,
  ...OPEN_WEIGHT_MODELS,
  ...DEMO_MODELS,
];
