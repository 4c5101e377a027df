import { HTTPClient, OpenRouter } from "@openrouter/sdk";
import { expect } from "vitest";
import { expectServedBy, type MatrixCase, type MatrixContext } from "./context.js";

// The web plugin (issue 32) through `@openrouter/sdk` at its defaults: `plugins: [{id: "web"}]` on a model
// of each wire format. None of the three has native search in the bundled catalogue, so the gateway asks
// the operator's search API (the Exa-compatible fake) and gives its results to the model; the fakes echo
// the question, whose markdown link to result 2 is then the answer's citation.
//
// The SDK's chat schemas (1.3.x) have no `annotations` on the message or the delta and zod drops the
// field, so the citations are read from the bytes the SDK was given (its own HTTPClient, tee'd); the
// SDK still parses the whole answer, and `usage.cost` is read from what it parsed.

const LINK = "[result-2.example.org](https://result-2.example.org/)";
const QUESTION = `What is new? See ${LINK}`;

/** An SDK whose every response body is also kept, as text, for the assertions. */
function recordingSdk(c: MatrixContext): { client: OpenRouter; bodies: Promise<string>[] } {
  const bodies: Promise<string>[] = [];
  const httpClient = new HTTPClient({
    fetcher: async (input, init) => {
      const response = await fetch(input, init);
      bodies.push(response.clone().text());
      return response;
    },
  });
  const client = new OpenRouter({ apiKey: c.apiKey, serverURL: `${c.url}/api/v1`, httpClient });
  return { client, bodies };
}

const request = (c: MatrixContext) => ({
  model: c.model,
  plugins: [{ id: "web" as const }],
  messages: [{ role: "user" as const, content: QUESTION }],
});

/** The cited link as OpenRouter's `url_citation`, its indices into the answer's text. */
function expectCitation(annotations: unknown, text: string): void {
  const start = text.indexOf(LINK);
  expect(start).toBeGreaterThan(0);
  expect(annotations).toEqual([
    {
      type: "url_citation",
      url_citation: expect.objectContaining({
        url: "https://result-2.example.org/",
        title: expect.stringContaining("Result 2"),
        start_index: start,
        end_index: start + LINK.length,
      }),
    },
  ]);
}

/** One search, with the operator's API, whose results reached the model in its own format (no plugin field). */
function expectSearched(c: MatrixContext): void {
  expect(c.search.requests()).toHaveLength(1);
  const sent = JSON.stringify(c.fake.requests().at(-1)?.body);
  expect(sent).toContain("https://result-1.example.org/");
  expect(sent).not.toContain("plugins");
  expectServedBy(c);
}

/** The search is metered: `cost` is the provider's price plus the search's, which `cost_details` leaves out. */
function expectSearchCharged(usage: { cost?: number | null; costDetails?: unknown } | undefined): void {
  const upstream = (usage?.costDetails as { upstreamInferenceCost?: number } | null | undefined)
    ?.upstreamInferenceCost;
  expect(upstream).toBeGreaterThan(0);
  expect(usage?.cost ?? 0).toBeGreaterThan((upstream ?? 0) + 1e-9);
}

export const openrouterWebCases: MatrixCase[] = [
  {
    sdk: "@openrouter/sdk",
    call: 'chat.send with plugins: [{id: "web"}]',
    async run(c) {
      const { client, bodies } = recordingSdk(c);
      const result = await client.chat.send({ chatRequest: request(c) });
      if (!("choices" in result)) throw new Error("expected a ChatResult");
      const content = result.choices[0]?.message.content;
      expect(typeof content).toBe("string");
      const raw = JSON.parse(await (bodies.at(-1) ?? Promise.resolve("{}"))) as {
        choices: { message: { content: string; annotations?: unknown } }[];
      };
      expect(raw.choices[0]?.message.content).toBe(content);
      expectCitation(raw.choices[0]?.message.annotations, String(content));
      expectSearchCharged(result.usage);
      expectSearched(c);
    },
  },
  {
    sdk: "@openrouter/sdk",
    call: 'chat.send with plugins: [{id: "web"}] (stream)',
    async run(c) {
      const { client, bodies } = recordingSdk(c);
      const stream = await client.chat.send({ chatRequest: { ...request(c), stream: true } });
      if ("choices" in stream) throw new Error("expected a stream");
      let text = "";
      let usage: Parameters<typeof expectSearchCharged>[0];
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? "";
        usage = chunk.usage ?? usage;
      }
      const frames = (await (bodies.at(-1) ?? Promise.resolve("")))
        .split("\n\n")
        .filter((frame) => frame.startsWith("data: {"))
        .map((frame) => JSON.parse(frame.slice(6)) as { choices: { delta: { annotations?: unknown } }[] });
      const cited = frames.filter((frame) => frame.choices[0]?.delta.annotations !== undefined);
      expect(cited).toHaveLength(1);
      expectCitation(cited[0]?.choices[0]?.delta.annotations, text);
      expectSearchCharged(usage);
      expectSearched(c);
    },
  },
];
