import { aiSdkCases } from "./ai-sdk-cases.js";
import type { MatrixCase } from "./context.js";
import { langchainCases } from "./langchain-cases.js";
import { officialCases } from "./official-cases.js";
import { openrouterCases } from "./openrouter-cases.js";
import { openrouterWebCases } from "./openrouter-web-cases.js";

/** Every case of the client matrix, in the table's order. */
export const MATRIX_CASES: readonly MatrixCase[] = [
  ...officialCases,
  ...openrouterCases,
  ...openrouterWebCases,
  ...aiSdkCases,
  ...langchainCases,
];
