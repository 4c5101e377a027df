import { parseAzureDeployments } from "@gw/catalog";
import { z } from "@gw/config";
import type { CatalogContent } from "./content.js";

/**
 * What the operator declares about its own cloud deployments, which no seed can know: zero data retention
 * on Azure OpenAI and Vertex AI is an arrangement between the customer and the cloud (Azure's modified
 * abuse monitoring; a Vertex project with caching disabled and an abuse-logging exception), not a
 * published default. docs/catalog.md, "Zero data retention".
 */
export interface CloudDeclarations {
  /** VERTEX_ZERO_DATA_RETENTION=true: every `google-vertex` endpoint is zero-data-retention. */
  readonly vertexZeroDataRetention: boolean;
  /** AZURE_OPENAI_DEPLOYMENTS entries with `"zero_data_retention": true`: upstream model names. */
  readonly azureZeroDataRetention: ReadonlySet<string>;
}

const VARIABLE_PREFIX = "AZURE_OPENAI_DEPLOYMENTS: ";

/** The variables, as config fragments (the keys app's and the embedded default's loaders share them). */
export const cloudDeclarationsEnv = {
  VERTEX_ZERO_DATA_RETENTION: z
    .enum(["true", "false"], { message: "expected true or false" })
    .default("false")
    .transform((value) => value === "true"),
  AZURE_OPENAI_DEPLOYMENTS: z
    .string()
    .optional()
    .transform((raw, context) => {
      const problems: string[] = [];
      const { zeroDataRetention } = parseAzureDeployments(raw, problems);
      for (const problem of problems)
        context.addIssue({ code: "custom", message: problem.replace(VARIABLE_PREFIX, "") });
      return zeroDataRetention;
    }),
};

export function cloudDeclarations(config: {
  VERTEX_ZERO_DATA_RETENTION: boolean;
  AZURE_OPENAI_DEPLOYMENTS: ReadonlySet<string>;
}): CloudDeclarations {
  return {
    vertexZeroDataRetention: config.VERTEX_ZERO_DATA_RETENTION,
    azureZeroDataRetention: config.AZURE_OPENAI_DEPLOYMENTS,
  };
}

/**
 * The seed with the declared endpoints zero-data-retention. Laid under the operator's catalogue changes
 * (an override of `is_zdr` still wins), and without the seed's version, so a declaration moves the
 * catalogue's version and every edge takes the new snapshot.
 */
export function withCloudDeclarations(seed: CatalogContent, declared: CloudDeclarations): CatalogContent {
  const declaresAny = declared.vertexZeroDataRetention || declared.azureZeroDataRetention.size > 0;
  if (!declaresAny) return seed;
  const zdr = (providerId: string, upstreamModel: string) =>
    (providerId === "google-vertex" && declared.vertexZeroDataRetention) ||
    (providerId === "azure" && declared.azureZeroDataRetention.has(upstreamModel));
  return {
    providers: seed.providers,
    models: seed.models.map((model) => ({
      ...model,
      endpoints: model.endpoints.map((endpoint) =>
        zdr(endpoint.providerId, endpoint.upstreamModel) ? { ...endpoint, isZdr: true } : endpoint,
      ),
    })),
  };
}
