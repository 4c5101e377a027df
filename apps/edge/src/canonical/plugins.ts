import { GatewayError } from "@gw/errors";
import { parseOrThrow } from "@gw/http";
import { z } from "zod";

// OpenRouter's request extensions that change what is sent rather than where (its "Plugins" and
// "Message Transforms" docs): `plugins: [{ id, enabled?, ...options }]` and `transforms: [name]`.
// Each is served or refused by name, never dropped: a caller told 200 believes a search or a
// compression happened.

/** One plugin as sent: an id, OpenRouter's `enabled` switch (default true), and the plugin's options. */
const plugin = z.looseObject({ id: z.string().min(1), enabled: z.boolean().optional() });
export const pluginsSchema = z.array(plugin).max(16);
export const transformsSchema = z.array(z.string()).max(16);

/** OpenRouter's `file-parser` engines (its PDF Inputs doc) and what the gateway does with each. */
const PDF_ENGINES = ["pdf-text", "cloudflare-ai", "native", "mistral-ocr"] as const;

const fileParserOptions = z.strictObject({
  id: z.literal("file-parser"),
  enabled: z.boolean().optional(),
  pdf: z.strictObject({ engine: z.string().min(1).optional() }).optional(),
});

// OpenRouter's newer name for the middle-out compression (its "context-compression" plugin); its one
// engine is "middle-out", which @openrouter/sdk's ContextCompressionPlugin type lets a caller name.
const contextCompressionOptions = z.strictObject({
  id: z.literal("context-compression"),
  enabled: z.boolean().optional(),
  engine: z.literal("middle-out").optional(),
});

const webOptions = z.strictObject({
  id: z.literal("web"),
  enabled: z.boolean().optional(),
  max_results: z.number().int().min(1).max(25).optional(),
  search_prompt: z.string().max(4_000).optional(),
  engine: z.enum(["native", "exa"]).optional(),
  include_domains: z.array(z.string().min(1)).optional(),
  exclude_domains: z.array(z.string().min(1)).optional(),
  max_uses: z.number().int().positive().max(25).optional(),
  user_location: z.looseObject({}).nullish(),
});

/** OpenRouter's default number of web results (its "Web Search" doc: `max_results`, default 5). */
export const DEFAULT_WEB_RESULTS = 5;

/** The `web` plugin (or the `:online` variant) as the gateway serves it (pipeline/web-native.ts picks how). */
export interface WebPlugin {
  /** The engine the caller named: the provider's own search, the operator's Exa-compatible API, or either. */
  engine?: "native" | "exa" | undefined;
  /** Native search only: the most searches the model may run (Anthropic's `max_uses`); bounds the hold. */
  maxUses?: number | undefined;
  /** Where the request asked for it (`plugins[i]` or `model` for `:online`), for a refusal to name. */
  field?: string | undefined;
  maxResults: number;
  /** The text put before the results; OpenRouter's default (web-search.ts) when absent. */
  searchPrompt: string | undefined;
  includeDomains: readonly string[] | undefined;
  excludeDomains: readonly string[] | undefined;
}

/** The provider's own web search as the web plugin asks for it; each format sends it its own way. */
export interface NativeWebSearch {
  /** The most searches the model may run (Anthropic's `max_uses`; the others search once). */
  maxUses: number;
  includeDomains: readonly string[] | undefined;
  excludeDomains: readonly string[] | undefined;
}

/** What a request's plugins and transforms ask the gateway to do, after every refusal. */
export interface RequestFeatures {
  /** `transforms: ["middle-out"]` or the `context-compression` plugin. */
  middleOut: boolean;
  /** The `file-parser` plugin's PDF handling: extract the text (`pdf-text`) or leave PDFs to the model. */
  pdf: "text" | "native" | undefined;
  /** The `web` plugin or a `:online` model: search first, results in the prompt. */
  web?: WebPlugin | undefined;
}

export const NO_FEATURES: RequestFeatures = { middleOut: false, pdf: undefined };

/**
 * What the gateway can serve: whether an operator configured a search API (WEB_SEARCH_URL). Native
 * search depends on the planned endpoints, so a web plugin without a search API is decided after
 * planning (pipeline/web-native.ts); only `engine: "exa"` is refused here without one.
 */
export interface FeatureSupport {
  webSearch: boolean;
}

const ONLINE_SUFFIX = ":online";

/** The plugins and transforms as the chat request carries them (any surface puts them there). */
export interface FeatureFields {
  model: string;
  models?: readonly string[] | undefined;
  plugins?: z.infer<typeof pluginsSchema> | undefined;
  transforms?: readonly string[] | undefined;
}

/**
 * The features a request asks for; a 400 naming the plugin, transform, option or engine the gateway
 * does not serve. A plugin sent with `enabled: false` asks for nothing, whatever its id.
 */
export function requestFeatures(
  request: FeatureFields,
  support: FeatureSupport = { webSearch: false },
): RequestFeatures {
  const features: RequestFeatures = { middleOut: false, pdf: undefined };
  for (const [index, transform] of (request.transforms ?? []).entries()) {
    if (transform !== "middle-out") refuse(`transforms[${index}]`, `unsupported transform "${transform}"`);
    features.middleOut = true;
  }
  for (const [index, sent] of (request.plugins ?? []).entries()) {
    if (sent.enabled === false) continue;
    const field = `plugins[${index}]`;
    if (sent.id === "file-parser") features.pdf = pdfEngine(field, sent);
    else if (sent.id === "context-compression") {
      parseOption(contextCompressionOptions, sent, field);
      features.middleOut = true;
    } else if (sent.id === "web") {
      const options = parseOption(webOptions, sent, field);
      if (options.engine === "exa" && !support.webSearch) refuseWeb(`${field}.engine`);
      features.web = webPlugin(field, options);
    } else refuse(`${field}.id`, `unsupported plugin "${sent.id}"`);
  }
  const online = [request.model, ...(request.models ?? [])].find((id) => id.endsWith(ONLINE_SUFFIX));
  if (online !== undefined) {
    // OpenRouter: `:online` is shorthand for `plugins: [{id: "web"}]`; an explicit plugin's options win.
    features.web ??= webPlugin("model", { id: "web" });
  }
  return features;
}

/** The model id without OpenRouter's `:online` shorthand (planning knows the model, not the variant). */
export function withoutOnline(model: string): string {
  return model.endsWith(ONLINE_SUFFIX) ? model.slice(0, -ONLINE_SUFFIX.length) : model;
}

/**
 * The web plugin's options as the gateway serves them. `max_uses` asks for native search (it means
 * nothing to Exa), so it cannot go with `engine: "exa"`; `user_location` has no translation to every
 * provider's search and is refused by name rather than ignored.
 */
function webPlugin(field: string, options: z.infer<typeof webOptions>): WebPlugin {
  if (options.max_uses !== undefined && options.engine === "exa")
    refuse(`${field}.max_uses`, 'applies to native web search only, not to engine "exa"');
  if (options.user_location != null)
    refuse(`${field}.user_location`, "is not offered by this gateway's web search");
  return {
    engine: options.engine,
    maxUses: options.max_uses,
    field,
    maxResults: options.max_results ?? DEFAULT_WEB_RESULTS,
    searchPrompt: options.search_prompt,
    includeDomains: options.include_domains,
    excludeDomains: options.exclude_domains,
  };
}

function pdfEngine(field: string, sent: z.infer<typeof plugin>): RequestFeatures["pdf"] {
  const engine = parseOption(fileParserOptions, sent, field).pdf?.engine;
  if (engine === undefined) return "text";
  const where = `${field}.pdf.engine`;
  if (!(PDF_ENGINES as readonly string[]).includes(engine))
    refuse(where, `unsupported PDF engine "${engine}" (this gateway offers "pdf-text" and "native")`);
  if (engine === "mistral-ocr")
    refuse(where, `PDF engine "mistral-ocr" is not offered by this gateway (use "pdf-text" or "native")`);
  // OpenRouter now redirects its deprecated "pdf-text" to "cloudflare-ai", its free text engine; here
  // both are the gateway's own text extraction.
  return engine === "native" ? "native" : "text";
}

/** A plugin's options by its own schema; a bad one is a 400 naming it under `plugins[i]`. */
function parseOption<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  field: string,
): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = (issue?.path ?? []).map((step) =>
    typeof step === "number" ? `[${step}]` : `.${String(step)}`,
  );
  return refuse(`${field}${path.join("")}`, issue?.message ?? "invalid value");
}

export function refuseWeb(field: string, prefix = ""): never {
  return refuse(
    field,
    `${prefix}the web plugin needs a search provider and no search provider is configured on this gateway`,
  );
}

export function refuse(field: string, message: string): never {
  throw new GatewayError("invalid_request", `${field}: ${message}`, {
    code: "invalid_request",
    metadata: { field },
  });
}

/** OpenRouter's extension fields as a non-chat surface's body carries them: taken out before its own parse. */
export interface PluginFields {
  plugins?: z.infer<typeof pluginsSchema> | undefined;
  transforms?: string[] | undefined;
}

const pluginFieldsSchema = z.object({
  plugins: pluginsSchema.optional(),
  transforms: transformsSchema.optional(),
});

/**
 * Splits `plugins` and `transforms` off a surface's body (the Responses, legacy completions and
 * Anthropic surfaces parse their own fields, some strictly), so the chat request gets them typed.
 */
export function splitPluginFields(body: unknown): { body: unknown; fields: PluginFields } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { body, fields: {} };
  const { plugins, transforms, ...rest } = body as Record<string, unknown>;
  if (plugins === undefined && transforms === undefined) return { body, fields: {} };
  const fields = parseOrThrow(pluginFieldsSchema, { plugins, transforms });
  return { body: rest, fields };
}
