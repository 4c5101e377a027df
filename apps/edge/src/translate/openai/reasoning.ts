import type { ChatRequest } from "../../canonical/chat-request.js";

type Effort = "minimal" | "low" | "medium" | "high";

// Token budgets for an effort level, for providers that take a budget (Anthropic, Gemini).
const EFFORT_BUDGET: Readonly<Record<Effort, number>> = {
  minimal: 1024,
  low: 1024,
  medium: 4096,
  high: 16_384,
};

function isEffort(value: unknown): value is Effort {
  return typeof value === "string" && value in EFFORT_BUDGET;
}

/**
 * The thinking budget a canonical request asks for: OpenRouter's unified `reasoning` object
 * (`{max_tokens}` or `{effort}`, `enabled: false` turns it off) or OpenAI's `reasoning_effort`.
 */
export function reasoningBudget(request: ChatRequest): number | undefined {
  const reasoning = request.reasoning as
    | { max_tokens?: unknown; effort?: unknown; enabled?: unknown }
    | undefined;
  if (reasoning && typeof reasoning === "object") {
    if (reasoning.enabled === false) return undefined;
    if (typeof reasoning.max_tokens === "number" && reasoning.max_tokens > 0)
      return Math.floor(reasoning.max_tokens);
    if (isEffort(reasoning.effort)) return EFFORT_BUDGET[reasoning.effort];
    if (reasoning.enabled === true) return EFFORT_BUDGET.medium;
  }
  return isEffort(request.reasoning_effort) ? EFFORT_BUDGET[request.reasoning_effort] : undefined;
}

/** A budget as OpenAI's effort level, for OpenAI-compatible hosts that only know `reasoning_effort`. */
export function effortFor(budget: number): Effort {
  if (budget <= EFFORT_BUDGET.low) return "low";
  if (budget <= EFFORT_BUDGET.medium) return "medium";
  return "high";
}

/**
 * What a canonical request says about thinking, for targets with an on/off switch and a "let the model
 * decide" setting (Gemini's `thinkingBudget` 0 and -1): `off` when the caller turned it off, `dynamic`
 * when it is on with no amount, else the budget. Undefined = the caller said nothing (model default).
 */
export type ThinkingMode = { kind: "off" } | { kind: "dynamic" } | { kind: "budget"; tokens: number };

export function thinkingMode(request: ChatRequest): ThinkingMode | undefined {
  const reasoning = request.reasoning as
    | { enabled?: unknown; max_tokens?: unknown; effort?: unknown }
    | undefined;
  if (reasoning && typeof reasoning === "object") {
    if (reasoning.enabled === false) return { kind: "off" };
    if (reasoning.enabled === true && reasoning.max_tokens === undefined && reasoning.effort === undefined)
      return { kind: "dynamic" };
  }
  const budget = reasoningBudget(request);
  return budget === undefined ? undefined : { kind: "budget", tokens: budget };
}

/** OpenRouter's `reasoning.exclude`: the model thinks, the caller does not want the thoughts back. */
export function thoughtsExcluded(request: ChatRequest): boolean {
  const reasoning = request.reasoning as { exclude?: unknown } | undefined;
  return typeof reasoning === "object" && reasoning !== null && reasoning.exclude === true;
}
