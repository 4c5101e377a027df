import { GatewayError } from "@gw/errors";
import { describe, expect, it } from "vitest";
import { requestFeatures } from "./plugins.js";

// @openrouter/sdk types the context-compression plugin with `engine` (its one value: "middle-out").

const features = (plugin: Record<string, unknown>) =>
  requestFeatures({ model: "openai/gpt-4o-mini", plugins: [{ id: "context-compression", ...plugin }] });

describe("the context-compression plugin", () => {
  it("is middle-out with or without the engine named", () => {
    expect(features({}).middleOut).toBe(true);
    expect(features({ engine: "middle-out" }).middleOut).toBe(true);
    expect(features({ engine: "middle-out", enabled: false }).middleOut).toBe(false);
  });

  it("refuses another engine, naming the field", () => {
    const refused = (() => {
      try {
        features({ engine: "summarize" });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).message).toMatch(/plugins\[0\]\.engine/);
  });
});
