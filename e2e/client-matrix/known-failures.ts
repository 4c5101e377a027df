import type { Format } from "./context.js";

/**
 * Cases that fail for a documented reason: each names the reason and the decision that explains it
 * (a link into docs/). Such a case is run like any other and must fail: if it starts passing, its test
 * fails until it is taken off this list. The generated table shows it as "known" with the reason.
 */
export interface KnownFailure {
  readonly sdk: string;
  readonly call: string;
  /** The formats it fails on; all three when absent. */
  readonly formats?: readonly Format[];
  readonly reason: string;
  /** Where the decision is written, relative to docs/ (e.g. `openrouter-compatibility.md#…`). */
  readonly decision: string;
}

export const KNOWN_FAILURES: readonly KnownFailure[] = [
  {
    // Its second step sends the first step's assistant text (Claude says a sentence before the tool
    // call; the OpenAI and Gemini fakes' models call the tool without one) as an item_reference.
    sdk: "@ai-sdk/openai",
    call: "generateText with a tool the SDK executes (two steps)",
    formats: ["anthropic"],
    reason:
      "at its default `store: true` the AI SDK sends the first step's text as `item_reference`; the Responses API is stateless, so a 400 naming it (works with `providerOptions.openai.store = false`)",
    decision: "openrouter-compatibility.md#real-clients-at-their-defaults-issue-30-decisions",
  },
  {
    sdk: "@ai-sdk/openai",
    call: "generateText, a second turn from the response's messages",
    reason:
      "at its default `store: true` the AI SDK sends the first turn's answer as `item_reference` (an id, not its content); the Responses API is stateless, so a 400 naming it; the same turn with `providerOptions.openai.store = false` passes",
    decision: "openrouter-compatibility.md#real-clients-at-their-defaults-issue-30-decisions",
  },
];

export function knownFailure(sdk: string, call: string, format: Format): KnownFailure | undefined {
  return KNOWN_FAILURES.find(
    (known) => known.sdk === sdk && known.call === call && (known.formats?.includes(format) ?? true),
  );
}
