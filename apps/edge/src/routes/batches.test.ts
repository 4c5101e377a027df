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
  it("refuses an unknown plugin, a web plugin and a malformed list, naming the request", () => {
    expect(() => checkBatchPlugins(params({ plugins: [{ id: "moderation" }] }), 2)).toThrow(
      'requests[2].params.plugins[0].id: unsupported plugin "moderation"',
    );
    expect(() => checkBatchPlugins(params({ plugins: [{ id: "web" }] }), 0)).toThrow(
      /requests\[0\]\.params\.plugins\[0\]: the web plugin/,
    );
    expect(() => checkBatchPlugins(params({ transforms: "middle-out" }), 1)).toThrow(
      /requests\[1\]\.params\.transforms/,
    );
    expect(() => checkBatchPlugins(params({ model: "anthropic/claude-test:online" }), 3)).toThrow(/:online/);
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
