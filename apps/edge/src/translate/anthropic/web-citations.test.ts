import { describe, expect, it } from "vitest";
import { completionFromAnthropic, usageFromAnthropic } from "./to-openai.js";

// A Messages response with the web search tool, shaped as docs.claude.com "Web search tool" shows it:
// server_tool_use, web_search_tool_result, then text blocks, the cited ones with `citations`.
const message = {
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-4",
  stop_reason: "end_turn",
  content: [
    { type: "text", text: "I'll search. " },
    { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } },
    {
      type: "web_search_tool_result",
      tool_use_id: "srvtoolu_1",
      content: [{ type: "web_search_result", url: "https://a.example/", title: "A", encrypted_content: "e" }],
    },
    {
      type: "text",
      text: "Café prices rose.",
      citations: [
        {
          type: "web_search_result_location",
          url: "https://a.example/",
          title: "A",
          cited_text: "prices rose",
          encrypted_index: "x",
        },
        { type: "char_location", document_index: 0, cited_text: "not a web source" },
      ],
    },
  ],
  usage: { input_tokens: 100, output_tokens: 20, server_tool_use: { web_search_requests: 1 } },
};

describe("Anthropic web search citations on the chat surface", () => {
  it("are url_citation annotations over each cited block's span of the joined text", () => {
    const body = completionFromAnthropic(message);
    const answer = body.choices[0]?.message as { content: string; annotations?: unknown[] };
    expect(answer.content).toBe("I'll search. Café prices rose.");
    expect(answer.annotations).toEqual([
      {
        type: "url_citation",
        url_citation: {
          url: "https://a.example/",
          title: "A",
          content: "prices rose",
          start_index: 13,
          end_index: 30,
        },
      },
    ]);
    expect(answer.content.slice(13, 30)).toBe("Café prices rose.");
  });

  it("count the searches Anthropic reports in usage.server_tool_use", () => {
    expect(usageFromAnthropic(message.usage)?.webSearches).toBe(1);
    expect(usageFromAnthropic({ input_tokens: 1, output_tokens: 1 })).not.toHaveProperty("webSearches");
  });
});
