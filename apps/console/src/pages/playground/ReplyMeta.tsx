import { createGatewayClient } from "@gw/client";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { formatNumber, formatUsd } from "../../components/format";
import type { ReplyState, StreamUsage } from "./chat-stream";

/** Cost, tokens and the generation id under a finished reply. */
export function ReplyMeta(props: {
  reply: ReplyState;
  status: "done" | "stopped" | "failed";
  apiKey: string;
}) {
  const { reply, status } = props;
  // A stopped stream never got its usage chunk: the generation record has the cost once it is written.
  const recorded = useRecordedUsage(reply.usage ? undefined : reply.generationId, props.apiKey);
  const usage = reply.usage ?? recorded;
  return (
    <div className="playground-meta">
      {status === "stopped" ? <p className="muted">Stopped.</p> : null}
      {reply.error ? (
        <p className="field-error" role="alert">
          {reply.error}
        </p>
      ) : null}
      {usage ? (
        <p>
          <span className="playground-cost">Cost {formatUsd(usage.cost)}</span>
          {" · "}
          {formatNumber(usage.promptTokens)} prompt + {formatNumber(usage.completionTokens)} completion tokens
          {usage.reasoningTokens ? ` (${formatNumber(usage.reasoningTokens)} reasoning)` : ""}
          {reply.provider ? ` · ${reply.provider}` : ""}
        </p>
      ) : reply.generationId ? (
        <p className="muted">The cost appears once the gateway has recorded the request.</p>
      ) : (
        <p className="muted">Stopped before the gateway answered; nothing was charged.</p>
      )}
      {reply.generationId ? (
        <p>
          Generation{" "}
          <Link to={`/generations?id=${encodeURIComponent(reply.generationId)}`}>{reply.generationId}</Link>
        </p>
      ) : null}
    </div>
  );
}

const ATTEMPTS = 6;
const PAUSE_MS = 1000;

/** The record's usage for a reply without a usage chunk; records arrive within a second or two. */
function useRecordedUsage(generationId: string | undefined, apiKey: string): StreamUsage | undefined {
  const [usage, setUsage] = useState<StreamUsage | undefined>(undefined);
  useEffect(() => {
    if (!generationId || !apiKey) return;
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const client = createGatewayClient({ baseUrl: window.location.origin, key: apiKey });
    const attempt = async (left: number) => {
      const { data } = await client
        .GET("/api/v1/generation", { params: { query: { id: generationId } } })
        .catch(() => ({ data: undefined }));
      if (!current) return;
      if (data) {
        const record = data.data;
        setUsage({
          promptTokens: record.tokens_prompt,
          completionTokens: record.tokens_completion,
          totalTokens: record.usage.total_tokens,
          reasoningTokens: record.native_tokens_reasoning,
          cachedTokens: record.native_tokens_cached,
          cost: record.usage.cost,
        });
      } else if (left > 1) {
        timer = setTimeout(() => void attempt(left - 1), PAUSE_MS);
      }
    };
    void attempt(ATTEMPTS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [generationId, apiKey]);
  return usage;
}
