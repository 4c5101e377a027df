import { describe, expect, it } from "vitest";
import { checkBatchPlugins } from "./batches.js";

// A batch request's plugins are refused at submission, naming the request, as a direct request's are.

const params = (extra: Record<string, unknown>) => ({
  model: "anthropic/claude-test",
  max_tokens: 10,
  messages: [{ role: "user", content: "hi" }],
  ...extra,
});

describe("checkBatchPlugins", () => {
  it("refuses an unknown plugin, the search API's engine without one, and a malformed list, naming the request", () => {
    expect(() => checkBatchPlugins(params({ plugins: [{ id: "moderation" }] }), 2)).toThrow(
      'requests[2].params.plugins[0].id: unsupported plugin "moderation"',
    );
    expect(() => checkBatchPlugins(params({ plugins: [{ id: "web", engine: "exa" }] }), 0)).toThrow(
      /requests\[0\]\.params\.plugins\[0\]\.engine: the web plugin/,
    );
    expect(() => checkBatchPlugins(params({ transforms: "middle-out" }), 1)).toThrow(
      /requests\[1\]\.params\.transforms/,
    );
  });

  // Native search depends on each item's plan, made when the item runs: there, a plan without it and no
  // search API is the item's 400 naming the plugin (pipeline/web-native.ts).
  it("leaves the web plugin and :online without a search API to each item's plan", () => {
    expect(() => checkBatchPlugins(params({ plugins: [{ id: "web" }] }), 0)).not.toThrow();
    expect(() => checkBatchPlugins(params({ model: "anthropic/claude-test:online" }), 3)).not.toThrow();
  });

  it("accepts what is served", () => {
    expect(() =>
      checkBatchPlugins(params({ plugins: [{ id: "file-parser" }], transforms: ["middle-out"] }), 0),
    ).not.toThrow();
  });

  it("accepts the web plugin and :online when a search provider is configured", () => {
    const support = { webSearch: true };
    expect(() => checkBatchPlugins(params({ plugins: [{ id: "web" }] }), 0, support)).not.toThrow();
    expect(() =>
      checkBatchPlugins(params({ model: "anthropic/claude-test:online" }), 0, support),
    ).not.toThrow();
  });
});
