import { describe, expect, it } from "vitest";
import { chatBody, DEFAULT_SETTINGS, settingsProblem } from "./send";

describe("chatBody", () => {
  const messages = [{ role: "user" as const, content: "hi" }];

  it("sends only the model, the messages and streaming when nothing is set", () => {
    expect(chatBody("demo/echo", messages)).toEqual({
      model: "demo/echo",
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("puts the system prompt first and sends the parameters that were set", () => {
    const body = chatBody("demo/echo", messages, {
      system: " Be brief. ",
      temperature: "0.2",
      maxTokens: "64",
    });
    expect(body.messages).toEqual([{ role: "system", content: "Be brief." }, ...messages]);
    expect(body).toMatchObject({ temperature: 0.2, max_tokens: 64 });
  });
});

describe("settingsProblem", () => {
  it("accepts blanks and values within the API's bounds", () => {
    expect(settingsProblem(DEFAULT_SETTINGS)).toBeUndefined();
    expect(settingsProblem({ system: "x", temperature: "2", maxTokens: "1" })).toBeUndefined();
  });

  it("names the setting that is out of bounds", () => {
    expect(settingsProblem({ ...DEFAULT_SETTINGS, temperature: "3" })).toMatch(/^Temperature/);
    expect(settingsProblem({ ...DEFAULT_SETTINGS, maxTokens: "0" })).toMatch(/^Max tokens/);
    expect(settingsProblem({ ...DEFAULT_SETTINGS, maxTokens: "1.5" })).toMatch(/^Max tokens/);
  });
});
