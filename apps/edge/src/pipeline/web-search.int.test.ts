import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchWeb } from "./web-search.js";

// The hold is placed before the search runs, on each result at its caps (RESULT_PROMPT_BYTES_MAX), so a
// search provider that sends more than it was asked for must be cut to them, not trusted.

let server: Server;
let url = "";
let answer: unknown = { results: [] };

beforeAll(async () => {
  server = createServer((_request, response) => {
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const plugin = {
  maxResults: 5,
  searchPrompt: undefined,
  includeDomains: undefined,
  excludeDomains: undefined,
};
const search = () =>
  searchWeb({ url, apiKey: "k", timeoutMs: 2_000 }, "q", plugin, new AbortController().signal);

describe("searchWeb's caps on what the search provider sends", () => {
  it("cuts a result's title at 200 and its text at 1,000 characters, and leaves out a URL over 1,000", async () => {
    const long = `https://example.org/${"p".repeat(1_000)}`;
    answer = {
      results: [
        { url: "https://example.org/a", title: "t".repeat(500), text: "x".repeat(5_000) },
        { url: long, title: "too long a URL", text: "y" },
      ],
    };
    const results = await search();
    expect(results).toHaveLength(1);
    expect(results[0]?.title).toHaveLength(200);
    expect(results[0]?.text).toHaveLength(1_000);
  });

  it("keeps at most max_results results", async () => {
    answer = {
      results: Array.from({ length: 9 }, (_, index) => ({ url: `https://example.org/${index}`, title: "t" })),
    };
    expect(await search()).toHaveLength(5);
  });
});
