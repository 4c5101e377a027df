import { useMemo, useState } from "react";
import { unwrap, useApi } from "../../api/client";
import { useQuery } from "../../api/use-query";
import { Chart, type ChartSeries } from "../../components/Chart";
import { EmptyState } from "../../components/EmptyState";
import { ErrorState } from "../../components/ErrorState";
import { formatNumber, formatUsd } from "../../components/format";
import { Loading } from "../../components/Loading";
import { PageHeader } from "../../components/PageHeader";
import { useSignedIn } from "../../session/session-context";
import { activityCsv, csvFileName } from "./csv";
import { RangeControl } from "./RangeControl";
import {
  type Bucket,
  balanceOf,
  clampRange,
  type DateRange,
  describeChart,
  inRange,
  lastDays,
  type Measure,
  perDay,
  perGroup,
  totals,
  utcDay,
} from "./series";
import { WalletUsage } from "./WalletUsage";
import "./usage.css";

export function UsagePage() {
  const session = useSignedIn();
  return session.kind === "wallet" ? <WalletUsage /> : <AccountUsage />;
}

function AccountUsage() {
  const api = useApi();
  const today = useMemo(() => utcDay(new Date()), []);
  const [range, setRange] = useState<DateRange>(() => lastDays(today, 30));
  const [keyHash, setKeyHash] = useState("");
  const [measure, setMeasure] = useState<Measure>("spend");

  const activity = useQuery(
    () =>
      unwrap(api.GET("/api/v1/activity", { params: { query: keyHash ? { api_key_hash: keyHash } : {} } })),
    [api, keyHash],
  );
  const credits = useQuery(() => unwrap(api.GET("/api/v1/credits")), [api]);
  const keys = useQuery(
    () =>
      unwrap(api.GET("/api/v1/keys", { params: { query: { page_size: 500, include_disabled: "true" } } })),
    [api],
  );

  const items = useMemo(() => inRange(activity.state.data?.data ?? [], range), [activity.state.data, range]);
  const sum = useMemo(() => totals(items), [items]);
  const balance = credits.state.data ? balanceOf(credits.state.data.data) : undefined;

  return (
    <>
      <PageHeader
        title="Usage"
        description="What the account spent and how many requests it made, per UTC day, model and provider."
        actions={
          <>
            <button
              type="button"
              className="button"
              disabled={items.length === 0}
              onClick={() => download(csvFileName(range), activityCsv(items))}
            >
              Export CSV
            </button>
            <button
              type="button"
              className="button"
              onClick={() => {
                activity.reload();
                credits.reload();
              }}
            >
              Refresh
            </button>
          </>
        }
      />
      <div className="usage-controls">
        <RangeControl today={today} range={range} onChange={(next) => setRange(clampRange(next, today))} />
        {keys.state.data && keys.state.data.data.length > 0 ? (
          <label className="field">
            <span className="field-label">API key</span>
            <select value={keyHash} onChange={(event) => setKeyHash(event.target.value)}>
              <option value="">All keys</option>
              {keys.state.data.data
                .filter((key) => key.key_type === "regular")
                .map((key) => (
                  <option key={key.hash} value={key.hash}>
                    {key.name} ({key.label})
                  </option>
                ))}
            </select>
          </label>
        ) : null}
      </div>

      <dl className="figures">
        <Figure label="Spend" value={activity.state.data ? formatUsd(sum.spend) : "…"} />
        <Figure label="Requests" value={activity.state.data ? formatNumber(sum.requests) : "…"} />
        <Figure
          label="Tokens (in / out)"
          value={
            activity.state.data
              ? `${formatNumber(sum.promptTokens)} / ${formatNumber(sum.completionTokens)}`
              : "…"
          }
        />
        <Figure label="Balance" value={balance === undefined ? "…" : formatUsd(balance)} />
        {sum.byokSpend > 0 ? <Figure label="BYOK spend" value={formatUsd(sum.byokSpend)} /> : null}
      </dl>
      {credits.state.status === "error" ? (
        <ErrorState problem={credits.state.problem} onRetry={credits.reload} />
      ) : null}
      {credits.state.data ? (
        <p className="muted">
          Credited {formatUsd(credits.state.data.data.total_credits)} in all, spent{" "}
          {formatUsd(credits.state.data.data.total_usage)}.
          {balance !== undefined && balance <= 0
            ? " The balance is used up: requests are refused with 402 until the operator grants credits or a wallet pays."
            : ""}
        </p>
      ) : null}

      {activity.state.status === "error" ? (
        <ErrorState problem={activity.state.problem} onRetry={activity.reload} />
      ) : activity.state.data === undefined ? (
        <Loading label="Loading activity…" />
      ) : items.length === 0 ? (
        <EmptyState title="No requests in this period">
          Requests appear here a few seconds after they finish. Create an API key on the Keys page and send a
          request (the Playground does it), or choose a longer period.
        </EmptyState>
      ) : (
        <Charts items={items} range={range} measure={measure} onMeasure={setMeasure} />
      )}
    </>
  );
}

/**
 * Saves text as a file: a Blob URL clicked as a download link (no server round trip; the edge's CSP
 * does not govern downloads), revoked once the browser has it.
 */
function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function Figure(props: { label: string; value: string }) {
  return (
    <div className="figure">
      <dt>{props.label}</dt>
      <dd>{props.value}</dd>
    </div>
  );
}

function Charts(props: {
  items: ReturnType<typeof inRange>;
  range: DateRange;
  measure: Measure;
  onMeasure: (measure: Measure) => void;
}) {
  const { items, range, measure } = props;
  const days = useMemo(() => perDay(items, range), [items, range]);
  const models = useMemo(() => perGroup(items, "model"), [items]);
  const providers = useMemo(() => perGroup(items, "provider"), [items]);
  return (
    <>
      <fieldset className="measure-control">
        <legend>Chart</legend>
        {(["spend", "requests"] as const).map((value) => (
          <label key={value} className="checkbox">
            <input
              type="radio"
              name="measure"
              value={value}
              checked={measure === value}
              onChange={() => props.onMeasure(value)}
            />
            {value === "spend" ? "Spend" : "Requests"}
          </label>
        ))}
      </fieldset>
      <div className="charts">
        <BucketChart title="Per day" subject="per day" category="Day" buckets={days} measure={measure} />
        <BucketChart
          title="Per model"
          subject="per model"
          category="Model"
          buckets={models}
          measure={measure}
          horizontal
        />
        <BucketChart
          title="Per provider"
          subject="per provider"
          category="Provider"
          buckets={providers}
          measure={measure}
          horizontal
        />
      </div>
    </>
  );
}

function BucketChart(props: {
  title: string;
  subject: string;
  category: string;
  buckets: Bucket[];
  measure: Measure;
  horizontal?: boolean;
}) {
  const { buckets, measure } = props;
  const labels = useMemo(() => buckets.map((bucket) => bucket.label), [buckets]);
  const both = useMemo<ChartSeries[]>(
    () => [
      { label: "Spend", values: buckets.map((bucket) => bucket.spend), format: formatUsd },
      { label: "Requests", values: buckets.map((bucket) => bucket.requests), format: formatNumber },
    ],
    [buckets],
  );
  const drawn = useMemo(() => both.filter((entry) => entry.label.toLowerCase() === measure), [both, measure]);
  const format = measure === "spend" ? formatUsd : formatNumber;
  return (
    <Chart
      type="bar"
      title={`${measure === "spend" ? "Spend" : "Requests"} ${props.title.toLowerCase()}`}
      description={describeChart(props.subject, buckets, measure, format)}
      labels={labels}
      series={drawn}
      tableSeries={both}
      categoryHeader={props.category}
      horizontal={props.horizontal ?? false}
    />
  );
}
