import type { components } from "@gw/client";
import { useEffect, useRef } from "react";
import { unwrap, useApi } from "../../api/client";
import { useQuery } from "../../api/use-query";
import { type Column, DataTable } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { ErrorState } from "../../components/ErrorState";
import { formatNumber } from "../../components/format";
import { Loading } from "../../components/Loading";
import { decimalOf, perMillionTokens } from "../../components/pricing";
import { endpointStatus, formatLatency, formatThroughput, formatUptime } from "./health";

/** What the detail shows of a catalogue model (OpenRouter's model object). */
export interface ModelSummary {
  id: string;
  name: string;
  description: string;
  context_length: number;
  architecture: { modality: string };
  supported_parameters: string[];
}
type Endpoint = components["schemas"]["ModelEndpoint"];

/** How often the endpoints' live figures are fetched again while the detail is open. */
export const REFRESH_MS = 30_000;

const COLUMNS: Column<Endpoint>[] = [
  { header: "Provider", cell: (e) => e.provider_name },
  { header: "Status", cell: (e) => endpointStatus(e.status, e.uptime_last_30m) },
  { header: "Uptime (30 min)", cell: (e) => formatUptime(e.uptime_last_30m), numeric: true },
  { header: "First token p50 / p90", cell: (e) => formatLatency(e.latency_last_30m), numeric: true },
  { header: "Throughput", cell: (e) => formatThroughput(e.throughput_last_30m), numeric: true },
  // The endpoints route gives prices as numbers (USD per token), shifted on their decimal digits too.
  { header: "Prompt / 1M", cell: (e) => perMillionTokens(decimalOf(e.pricing.prompt)), numeric: true },
  {
    header: "Completion / 1M",
    cell: (e) => perMillionTokens(decimalOf(e.pricing.completion)),
    numeric: true,
  },
  {
    header: "Per request",
    cell: (e) => (e.pricing.request > 0 ? `$${decimalOf(e.pricing.request)}` : "—"),
    numeric: true,
  },
  { header: "Context", cell: (e) => formatNumber(e.context_length), numeric: true },
  { header: "Max output", cell: (e) => formatNumber(e.max_completion_tokens), numeric: true },
  { header: "Quantization", cell: (e) => e.quantization ?? "—" },
  { header: "Zero data retention", cell: (e) => (e.is_zdr ? "Yes" : "No") },
];

/** One model: its description and each provider endpoint with live uptime, latency and throughput. */
export function ModelDetail(props: { model: ModelSummary; onClose: () => void }) {
  const { model } = props;
  const api = useApi();
  const [author = "", slug = ""] = splitId(model.id);
  const { state, reload } = useQuery(
    () => unwrap(api.GET("/api/v1/models/{author}/{slug}/endpoints", { params: { path: { author, slug } } })),
    [api, author, slug],
  );
  // The detail opens above the list: opened from far down, it would be off screen. Bring its heading
  // into view and give it focus, so keyboard and screen reader users land on it too.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.scrollIntoView({ block: "start" });
    heading.current?.focus({ preventScroll: true });
  }, []);
  useEffect(() => {
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);

  return (
    <section className="model-detail" aria-labelledby="model-detail-title">
      <h2 id="model-detail-title" ref={heading} tabIndex={-1}>
        {model.name}
      </h2>
      <p className="muted">
        <code>{model.id}</code> · context {formatNumber(model.context_length)} tokens ·{" "}
        {model.architecture.modality}
      </p>
      {model.description ? <p>{model.description}</p> : null}
      <p>
        <span className="field-label">Supported parameters: </span>
        {model.supported_parameters.length ? model.supported_parameters.join(", ") : "none listed"}
      </p>
      <h3>Endpoints</h3>
      <p className="muted">Measured over the last 30 minutes; refreshed every {REFRESH_MS / 1000} seconds.</p>
      {state.status === "error" ? <ErrorState problem={state.problem} onRetry={reload} /> : null}
      {state.status === "loading" && !state.data ? <Loading label="Loading the endpoints…" /> : null}
      {state.data && state.data.data.length === 0 ? (
        <EmptyState title="No endpoint serves this model">An operator may have disabled them.</EmptyState>
      ) : null}
      {state.data && state.data.data.length > 0 ? (
        <DataTable
          label={`Endpoints of ${model.id}`}
          columns={COLUMNS}
          rows={state.data.data}
          rowKey={(e) => e.provider_id}
        />
      ) : null}
      <button type="button" className="button" onClick={props.onClose}>
        Close details
      </button>
    </section>
  );
}

/** "openai/gpt-4o" → ["openai", "gpt-4o"]; a slug may itself hold a slash, which stays in it. */
function splitId(id: string): [string, string] {
  const at = id.indexOf("/");
  return at < 0 ? [id, ""] : [id.slice(0, at), id.slice(at + 1)];
}
