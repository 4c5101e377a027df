import { describe, expect, it } from "vitest";
import { messageBatch, parseCreateBatch } from "./batches.js";

const params = { model: "m", max_tokens: 5, messages: [{ role: "user", content: "x" }] };

describe("message batch shapes", () => {
  it("validates every request, naming it, before anything is stored", () => {
    expect(parseCreateBatch({ requests: [{ custom_id: "a", params }] }).requests).toHaveLength(1);
    expect(() => parseCreateBatch({ requests: [] })).toThrow(/requests/);
    expect(() => parseCreateBatch({ requests: [{ custom_id: "a b", params }] })).toThrow(
      /requests\[0\]\.custom_id/,
    );
    expect(() =>
      parseCreateBatch({ requests: [{ custom_id: "a", params: { ...params, max_tokens: undefined } }] }),
    ).toThrow(/requests\[0\]\.params\.max_tokens/);
    expect(() =>
      parseCreateBatch({ requests: [{ custom_id: "a", params: { ...params, stream: true } }] }),
    ).toThrow(/stream/);
    expect(() =>
      parseCreateBatch({
        requests: [
          { custom_id: "a", params },
          { custom_id: "a", params },
        ],
      }),
    ).toThrow(/requests\[1\]\.custom_id: duplicate a/);
    expect(() =>
      parseCreateBatch({
        requests: [
          {
            custom_id: "a",
            params: { ...params, messages: [{ role: "user", content: [{ type: "container_upload" }] }] },
          },
        ],
      }),
    ).toThrow(/^requests\[0\]\.params\.messages\[0\]\.content\[0\] \(type container_upload\)/);
    // Batch items run on the translated path: a nested member it would lose is refused by path.
    expect(() =>
      parseCreateBatch({
        requests: [{ custom_id: "a", params: { ...params, tools: [{ name: "t", strict: true }] } }],
      }),
    ).toThrow(/^requests\[0\]\.params\.tools\[0\]\.strict cannot be sent/);
  });

  it("refuses text the batch store cannot keep (NUL, an unpaired surrogate), naming the field", () => {
    const withText = (content: string, system?: string) => ({
      requests: [
        { custom_id: "ok", params },
        {
          custom_id: "b",
          params: {
            ...params,
            ...(system === undefined ? {} : { system }),
            messages: [{ role: "user", content }],
          },
        },
      ],
    });
    for (const content of ["a\u0000b", "lone \ud800", "\udc00 trailing half", "reversed \udc00\ud800"]) {
      let thrown: unknown;
      try {
        parseCreateBatch(withText(content));
      } catch (error) {
        thrown = error;
      }
      expect(thrown, content).toMatchObject({
        kind: "invalid_request",
        metadata: { field: "requests[1].params.messages[0].content" },
      });
    }
    expect(() => parseCreateBatch(withText("x", "sys\u0000"))).toThrow(
      /^requests\[1\]\.params\.system: must not contain NUL characters or unpaired surrogates/,
    );
    // A surrogate pair (an emoji) is ordinary text.
    expect(parseCreateBatch(withText("emoji \ud83d\ude00")).requests).toHaveLength(2);
  });

  it("renders Anthropic's MessageBatch with an absolute results_url only once ended", () => {
    const batch = {
      id: "msgbatch_1",
      processingStatus: "in_progress",
      processing: 2,
      succeeded: 0,
      errored: 0,
      canceled: 0,
      expired: 0,
      createdAtMs: 1_700_000_000_000n,
      expiresAtMs: 1_700_086_400_000n,
      endedAtMs: 0n,
      cancelInitiatedAtMs: 0n,
    };
    expect(messageBatch(batch, "http://gw")).toEqual({
      id: "msgbatch_1",
      type: "message_batch",
      processing_status: "in_progress",
      request_counts: { processing: 2, succeeded: 0, errored: 0, canceled: 0, expired: 0 },
      created_at: "2023-11-14T22:13:20.000Z",
      expires_at: "2023-11-15T22:13:20.000Z",
      ended_at: null,
      cancel_initiated_at: null,
      archived_at: null,
      results_url: null,
    });
    const ended = messageBatch(
      { ...batch, processingStatus: "ended", endedAtMs: 1_700_000_100_000n },
      "http://gw",
    );
    expect(ended.results_url).toBe("http://gw/v1/messages/batches/msgbatch_1/results");
  });
});
