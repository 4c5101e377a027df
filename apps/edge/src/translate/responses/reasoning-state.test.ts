import { describe, expect, it } from "vitest";
import { ANTHROPIC_REASONING_FORMAT } from "../anthropic/to-openai.js";
import { chatMessagesFromInput } from "./input-items.js";
import { decodeReasoningDetails, encodeReasoningDetails, mergeReasoningDetails } from "./reasoning-state.js";

const format = ANTHROPIC_REASONING_FORMAT;
const fragment = (fields: Record<string, unknown>) => ({
  type: "reasoning.text",
  format,
  index: 0,
  ...fields,
});

describe("reasoning state in encrypted_content", () => {
  it("round-trips the details and ignores another service's encrypted content or garbage", () => {
    const details = [fragment({ text: "think", signature: "sig" })];
    const encoded = encodeReasoningDetails(details);
    expect(encoded.startsWith("gw-rd1.")).toBe(true);
    expect(decodeReasoningDetails(encoded)).toEqual(details);
    expect(decodeReasoningDetails("gAAAAABopenai-encrypted")).toEqual([]);
    expect(decodeReasoningDetails("gw-rd1.%%%")).toEqual([]);
    expect(decodeReasoningDetails(`gw-rd1.${Buffer.from('{"a":1}').toString("base64url")}`)).toEqual([]);
    expect(decodeReasoningDetails(undefined)).toEqual([]);
  });

  it("ignores state nested deeper than a body may be (issue 33: written out recursively later)", () => {
    const deep = Buffer.from(`[{"a":${"[".repeat(10_000)}${"]".repeat(10_000)}}]`).toString("base64url");
    expect(decodeReasoningDetails(`gw-rd1.${deep}`)).toEqual([]);
  });

  it("joins streamed thinking fragments until the signature, and merging twice changes nothing", () => {
    const merged = mergeReasoningDetails([
      fragment({ text: "Let me " }),
      fragment({ text: "think." }),
      fragment({ signature: "sig-1" }),
      { type: "reasoning.encrypted", data: "redacted", format, index: 0 },
      fragment({ text: "Again." }),
      fragment({ signature: "sig-2" }),
    ]);
    expect(merged).toEqual([
      fragment({ text: "Let me think.", signature: "sig-1" }),
      { type: "reasoning.encrypted", data: "redacted", format, index: 0 },
      fragment({ text: "Again.", signature: "sig-2" }),
    ]);
    expect(mergeReasoningDetails(merged)).toEqual(merged);
  });
});

describe("reasoning items in the input", () => {
  const details = [fragment({ text: "weather needs a tool", signature: "sig" })];
  const reasoning = {
    type: "reasoning",
    id: "rs_1",
    summary: [],
    encrypted_content: encodeReasoningDetails(details),
  };
  const call = { type: "function_call", call_id: "c1", name: "get_weather", arguments: "{}" };

  it("puts the state back on the assistant turn they follow (a streamed answer lists them last)", () => {
    const messages = chatMessagesFromInput([{ role: "user", content: "weather?" }, call, reasoning]);
    expect(messages[1]).toMatchObject({
      role: "assistant",
      tool_calls: [{ id: "c1" }],
      reasoning_details: details,
    });
  });

  it("or on the next assistant turn when they come first", () => {
    const messages = chatMessagesFromInput([{ role: "user", content: "weather?" }, reasoning, call]);
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatchObject({ role: "assistant", reasoning_details: details });
  });

  it("sends nothing for reasoning items without this gateway's state", () => {
    const foreign = { type: "reasoning", id: "rs_x", summary: [], encrypted_content: "gAAAAB" };
    const messages = chatMessagesFromInput([{ role: "user", content: "hi" }, foreign, call]);
    expect(messages[1]).not.toHaveProperty("reasoning_details");
  });
});
