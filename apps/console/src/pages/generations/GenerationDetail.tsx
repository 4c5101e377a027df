import type { components } from "@gw/client";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { type Column, DataTable } from "../../components/DataTable";
import { formatDateTime, formatDuration, formatNumber, formatUsd } from "../../components/format";
import { attemptStatus, failureSummary, statusLabel } from "./status";

type GenerationSchema = components["schemas"]["Generation"];
/** The fields that are always null (OpenRouter's, for features the gateway does not have). */
type AlwaysNull = {
  [K in keyof GenerationSchema]: GenerationSchema[K] extends null ? K : never;
}[keyof GenerationSchema];
// cache_discount and the always-null fields are left out: the typed client drops null-only fields from
// answers, and they are not shown.
export type Generation = Omit<GenerationSchema, "cache_discount" | AlwaysNull>;
type Attempt = Generation["attempts"][number];

const ATTEMPT_COLUMNS: Column<Attempt & { index: number }>[] = [
  { header: "#", cell: (attempt) => attempt.index + 1, numeric: true },
  { header: "Provider", cell: (attempt) => attempt.provider },
  { header: "Upstream model", cell: (attempt) => attempt.model },
  { header: "Status", cell: (attempt) => attemptStatus(attempt.status) },
  { header: "Latency", cell: (attempt) => formatDuration(attempt.latency_ms), numeric: true },
  { header: "BYOK", cell: (attempt) => (attempt.is_byok ? "Yes" : "No") },
];

/** The full record of one generation: what was asked, how it ended, every attempt, and what it cost. */
export function GenerationDetail(props: { generation: Generation; keyName?: string | undefined }) {
  const g = props.generation;
  const usage = g.usage;
  return (
    <section className="generation-detail" aria-labelledby="generation-detail-title">
      <h2 id="generation-detail-title">Generation {g.id}</h2>
      <div className="detail-columns">
        <Facts
          title="Request"
          facts={[
            ["Created", formatDateTime(g.created_at)],
            ["Model", g.model],
            ["Provider", g.provider_name || g.provider],
            ["API", g.api_type],
            ["Streamed", g.streamed ? "Yes" : "No"],
            ["Status", statusLabel(g)],
            ...errorFacts(g),
            ["Finish reason (provider's)", g.native_finish_reason ?? "—"],
            ["Latency (first byte)", formatDuration(g.latency_ms)],
            ["Generation time", formatDuration(g.generation_time_ms)],
            // The key's name when the session may read it (a management key's own keys); its hash else.
            props.keyName
              ? ["API key", <KeyName key="key" name={props.keyName} hash={g.key_hash} />]
              : ["API key (hash)", <code key="hash">{g.key_hash}</code>],
            ["App", g.app_title ?? (g.origin || "—")],
            ["Upstream id", g.upstream_id ?? "—"],
          ]}
        />
        <Facts
          title="Tokens"
          facts={[
            ["Prompt", formatNumber(usage.prompt_tokens)],
            ["Completion", formatNumber(usage.completion_tokens)],
            ["Reasoning", formatNumber(usage.completion_tokens_details.reasoning_tokens)],
            ["Cached (read)", formatNumber(usage.prompt_tokens_details.cached_tokens)],
            ["Cache write", formatNumber(usage.prompt_tokens_details.cache_write_tokens)],
            ["Total", formatNumber(usage.total_tokens)],
            ["Counted by the gateway", usage.estimated ? "Yes (the provider sent no usage)" : "No"],
          ]}
        />
        <Facts
          title="Cost"
          facts={[
            ["Charged to credits", formatUsd(usage.cost)],
            ["Provider cost", formatUsd(usage.cost_details.upstream_inference_cost)],
            ["  of which prompt", formatUsd(usage.cost_details.upstream_inference_prompt_cost)],
            ["  of which completion", formatUsd(usage.cost_details.upstream_inference_completions_cost)],
            ["Own provider key (BYOK)", usage.is_byok ? "Yes" : "No"],
          ]}
        />
      </div>
      <h3>Attempts</h3>
      <DataTable
        label={`Attempts of generation ${g.id}`}
        columns={ATTEMPT_COLUMNS}
        rows={g.attempts.map((attempt, index) => ({ ...attempt, index }))}
        rowKey={(attempt) => String(attempt.index)}
      />
      <p className="muted">
        Every provider the gateway tried, in order; the last one answered. See the model on the{" "}
        <Link to={`/models?model=${encodeURIComponent(g.model)}`}>Models</Link> page.
      </p>
    </section>
  );
}

/**
 * A failed generation's error as its client was told it (the record keeps it since issue 30), with the
 * HTTP status and reason; for a record from before that, what its attempts say.
 */
function errorFacts(g: Generation): Array<[string, ReactNode]> {
  if (g.error) {
    const reason = g.error.reason ? `, ${g.error.reason}` : "";
    return [
      ["Error", g.error.message],
      ["Error status", `HTTP ${g.error.code}${reason}`],
    ];
  }
  const summary = failureSummary(g);
  return summary ? [["Error", summary]] : [];
}

function Facts(props: { title: string; facts: Array<[string, ReactNode]> }) {
  return (
    <div className="detail-facts">
      <h3>{props.title}</h3>
      <dl>
        {props.facts.map(([term, value]) => (
          <div key={term} className="detail-fact">
            <dt>{term.trim()}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function KeyName(props: { name: string; hash: string }) {
  return (
    <>
      {props.name}{" "}
      <code className="key-hash" title={props.hash}>
        {props.hash.slice(0, 12)}…
      </code>
    </>
  );
}
