import { type FormEvent, useId, useState } from "react";
import { useSearchParams } from "react-router";
import { unwrap, useApi } from "../../api/client";
import { useQuery } from "../../api/use-query";
import { CursorPager, useCursorPages } from "../../components/CursorPager";
import { type Column, DataTable } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { ErrorState } from "../../components/ErrorState";
import { formatDateTime, formatDuration, formatNumber, formatUsd } from "../../components/format";
import { LinkButton } from "../../components/LinkButton";
import { Loading } from "../../components/Loading";
import {
  filtersFromSearch,
  filtersIntoSearch,
  filtersProblem,
  filtersToQuery,
  type GenerationFilters,
  STATUS_OPTIONS,
} from "./filters";
import type { Generation } from "./GenerationDetail";
import { attemptsLabel, statusLabel } from "./status";

/** The account's recent generations, newest first, filtered and paged by the list route's cursor. */
export function RecentGenerations(props: { onOpen: (id: string) => void }) {
  const api = useApi();
  const [search, setSearch] = useSearchParams();
  const filters = filtersFromSearch(search);
  const pages = useCursorPages();
  const filterKey = JSON.stringify(filters);
  const { state, reload } = useQuery(
    () =>
      unwrap(api.GET("/api/v1/generations", { params: { query: filtersToQuery(filters, pages.cursor) } })),
    [api, filterKey, pages.cursors],
  );

  const applyFilters = (next: GenerationFilters) => {
    pages.reset();
    setSearch(filtersIntoSearch(next, search));
  };

  const columns: Column<Generation>[] = [
    {
      header: "Created",
      cell: (g) => (
        <LinkButton onClick={() => props.onOpen(g.id)}>
          {formatDateTime(g.created_at)}
          <span className="visually-hidden"> — details of {g.id}</span>
        </LinkButton>
      ),
    },
    { header: "Model", cell: (g) => g.model },
    { header: "Provider", cell: (g) => g.provider_name || g.provider },
    {
      header: "Tokens (in / out)",
      cell: (g) => `${formatNumber(g.tokens_prompt)} / ${formatNumber(g.tokens_completion)}`,
      numeric: true,
    },
    { header: "Cost", cell: (g) => formatUsd(g.usage.cost), numeric: true },
    { header: "Latency", cell: (g) => formatDuration(g.latency_ms), numeric: true },
    { header: "Status", cell: statusLabel },
    { header: "Attempts", cell: attemptsLabel, numeric: true },
  ];

  return (
    <section aria-labelledby="recent-generations-title">
      <h2 id="recent-generations-title">Recent generations</h2>
      <FiltersForm
        value={filters}
        onApply={applyFilters}
        providers={[...new Set((state.data?.data ?? []).map((g) => g.provider))].sort()}
      />
      {state.status === "error" ? <ErrorState problem={state.problem} onRetry={reload} /> : null}
      {state.status === "loading" && !state.data ? <Loading label="Loading recent generations…" /> : null}
      {state.data && state.data.data.length === 0 ? (
        <EmptyState
          title={filtersActive(filters) ? "No generation matches these filters" : "No generations yet"}
        >
          {filtersActive(filters)
            ? "Widen the date range or clear a filter."
            : "Requests made with your API keys appear here within a second or two. Try one from the Playground."}
        </EmptyState>
      ) : null}
      {state.data && state.data.data.length > 0 ? (
        <DataTable label="Recent generations" columns={columns} rows={state.data.data} rowKey={(g) => g.id} />
      ) : null}
      <CursorPager pages={pages} nextCursor={state.data?.next_cursor} loading={state.status === "loading"}>
        {state.status === "loading" && state.data ? <Loading label="Updating…" /> : null}
      </CursorPager>
    </section>
  );
}

function filtersActive(filters: GenerationFilters): boolean {
  return Object.values(filters).some((value) => value !== "");
}

function FiltersForm(props: {
  value: GenerationFilters;
  onApply: (filters: GenerationFilters) => void;
  /** Providers seen in the rows shown, offered as suggestions. */
  providers: string[];
}) {
  const [draft, setDraft] = useState(props.value);
  const [problem, setProblem] = useState<string | undefined>();
  const id = useId();
  const keys = useKeyOptions();
  const models = useModelIds();
  const set = (field: keyof GenerationFilters) => (value: string) =>
    setDraft((d) => ({ ...d, [field]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = filtersProblem(draft);
    setProblem(found);
    if (!found) props.onApply(draft);
  };
  return (
    <form className="generations-filters" onSubmit={submit} aria-label="Filter generations">
      <div className="field">
        <label className="field-label" htmlFor={`${id}-key`}>
          API key
        </label>
        <select
          id={`${id}-key`}
          value={draft.apiKeyHash}
          onChange={(event) => set("apiKeyHash")(event.target.value)}
        >
          <option value="">All keys</option>
          {keys.map((key) => (
            <option key={key.hash} value={key.hash}>
              {key.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-model`}>
          Model
        </label>
        {/* The catalogue's ids as suggestions: the filter matches an id exactly, which nobody types. */}
        <input
          id={`${id}-model`}
          value={draft.model}
          list={`${id}-models`}
          placeholder="e.g. openai/gpt-4o-mini"
          onChange={(event) => set("model")(event.target.value)}
        />
        <datalist id={`${id}-models`}>
          {models.map((model) => (
            <option key={model} value={model} />
          ))}
        </datalist>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-provider`}>
          Provider
        </label>
        <input
          id={`${id}-provider`}
          value={draft.provider ?? ""}
          list={`${id}-providers`}
          placeholder="e.g. openai"
          onChange={(event) => set("provider")(event.target.value)}
        />
        <datalist id={`${id}-providers`}>
          {props.providers.map((provider) => (
            <option key={provider} value={provider} />
          ))}
        </datalist>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-status`}>
          Status
        </label>
        <select
          id={`${id}-status`}
          value={draft.status ?? ""}
          onChange={(event) => set("status")(event.target.value)}
        >
          <option value="">Any</option>
          {STATUS_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-from`}>
          From
        </label>
        <input
          id={`${id}-from`}
          type="date"
          value={draft.from}
          onChange={(event) => set("from")(event.target.value)}
        />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-to`}>
          To
        </label>
        <input
          id={`${id}-to`}
          type="date"
          value={draft.to}
          onChange={(event) => set("to")(event.target.value)}
        />
      </div>
      <button type="submit" className="button">
        Filter
      </button>
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
    </form>
  );
}

/** The account's keys for the API key filter (names shown, hashes sent); empty while loading or on error. */
function useKeyOptions(): Array<{ hash: string; name: string }> {
  const api = useApi();
  const { state } = useQuery(
    () =>
      unwrap(api.GET("/api/v1/keys", { params: { query: { page_size: 500, include_disabled: "true" } } })),
    [api],
  );
  return (state.data?.data ?? []).map((key) => ({ hash: key.hash, name: key.name || key.label }));
}

/** The catalogue's model ids (`GET /api/v1/models`), for the model filter's suggestions. */
function useModelIds(): string[] {
  const api = useApi();
  const { state } = useQuery(() => unwrap(api.GET("/api/v1/models")), [api]);
  return (state.data?.data ?? []).map((model) => model.id).sort();
}
