/**
 * AZURE_OPENAI_DEPLOYMENTS, read by the edge (which deployment serves a model) and by the keys app (which
 * Azure endpoints the operator declares zero-data-retention). JSON, model's upstream name → either the
 * deployment's name, or `{"deployment": "...", "zero_data_retention": true}`. Zero retention on Azure is
 * the customer's own arrangement (modified abuse monitoring, approved per subscription by Microsoft), so
 * only the operator can declare it, deployment by deployment.
 */
export interface AzureDeployments {
  /** Model (upstream name) → deployment name; a model not listed is served by a deployment of its name. */
  readonly deployments: Readonly<Record<string, string>>;
  /** The models (upstream names) whose deployment the operator declares zero-data-retention. */
  readonly zeroDataRetention: ReadonlySet<string>;
}

const DEPLOYMENT = /^[A-Za-z0-9._-]{1,64}$/;
const VARIABLE = "AZURE_OPENAI_DEPLOYMENTS";

/** Azure's deployment names: letters, digits, `.`, `_`, `-`, at most 64. */
export function isAzureDeployment(value: string): boolean {
  return DEPLOYMENT.test(value);
}

/** Parses the variable's text; each problem names the variable and the entry (nothing throws). */
export function parseAzureDeployments(raw: string | undefined, problems: string[]): AzureDeployments {
  const deployments: Record<string, string> = {};
  const zeroDataRetention = new Set<string>();
  const text = raw?.trim();
  if (!text) return { deployments, zeroDataRetention };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    problems.push(`${VARIABLE}: not JSON (expected {"gpt-4o": "my-gpt-4o-deployment", ...})`);
    return { deployments, zeroDataRetention };
  }
  if (!isRecord(json)) {
    problems.push(`${VARIABLE}: expected a JSON object of model name → deployment`);
    return { deployments, zeroDataRetention };
  }
  for (const [model, entry] of Object.entries(json)) {
    const parsed = parseEntry(model, entry);
    if (typeof parsed === "string") {
      problems.push(`${VARIABLE}: "${model}" ${parsed}`);
      continue;
    }
    deployments[model] = parsed.deployment;
    if (parsed.zeroDataRetention) zeroDataRetention.add(model);
  }
  return { deployments, zeroDataRetention };
}

const ENTRY_SHAPE = 'needs a deployment name, or {"deployment": "name", "zero_data_retention": true}';

/** One entry, or what is wrong with it. */
function parseEntry(
  model: string,
  entry: unknown,
): { deployment: string; zeroDataRetention: boolean } | string {
  if (typeof entry === "string")
    return isAzureDeployment(entry) ? { deployment: entry, zeroDataRetention: false } : ENTRY_SHAPE;
  if (!isRecord(entry)) return ENTRY_SHAPE;
  const unknown = Object.keys(entry).filter((key) => key !== "deployment" && key !== "zero_data_retention");
  if (unknown.length > 0) return `has unknown field(s) ${unknown.join(", ")}: ${ENTRY_SHAPE}`;
  const deployment = entry.deployment ?? model;
  if (typeof deployment !== "string" || !isAzureDeployment(deployment))
    return "needs a deployment name of letters, digits, . _ - (at most 64)";
  const zdr = entry.zero_data_retention ?? false;
  if (typeof zdr !== "boolean") return "zero_data_retention must be true or false";
  return { deployment, zeroDataRetention: zdr };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
