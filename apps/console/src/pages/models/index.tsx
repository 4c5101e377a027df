import { useId, useMemo } from "react";
import { useSearchParams } from "react-router";
import { unwrap, useApi } from "../../api/client";
import { useQuery } from "../../api/use-query";
import { type Column, DataTable } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { ErrorState } from "../../components/ErrorState";
import { formatNumber } from "../../components/format";
import { LinkButton } from "../../components/LinkButton";
import { Loading } from "../../components/Loading";
import { PageHeader } from "../../components/PageHeader";
import { hasPrice, perMillionTokens } from "../../components/pricing";
import {
  filterModels,
  filterOptions,
  MAX_PROMPT_PRICES,
  MIN_CONTEXTS,
  MODEL_SORTS,
  type ModelFilter,
  sortModels,
} from "./filter";
import { ModelDetail } from "./ModelDetail";
import "./models.css";

/**
 * The catalogue (`GET /api/v1/models`): search, filters, prices per million tokens, context and
 * supported parameters; `?model=<id>` opens a model's endpoints with their live health.
 */
export function ModelsPage() {
  const api = useApi();
  const [search, setSearch] = useSearchParams();
  const { state, reload } = useQuery(() => unwrap(api.GET("/api/v1/models")), [api]);
  const filter: ModelFilter = {
    search: search.get("q") ?? "",
    parameter: search.get("parameter") ?? "",
    modality: search.get("modality") ?? "",
    maxPrompt: search.get("max_prompt") ?? "",
    minContext: search.get("min_context") ?? "",
  };
  const openId = search.get("model") ?? "";
  const models = state.data?.data ?? [];
  const options = useMemo(() => filterOptions(models), [models]);
  const sort = search.get("sort") ?? "";
  const shown = sortModels(filterModels(models, filter), sort);
  const open = models.find((model) => model.id === openId);

  const setParam = (name: string, value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(name, value);
    else next.delete(name);
    setSearch(next, { replace: name !== "model" });
  };

  const columns: Column<(typeof models)[number]>[] = [
    {
      header: "Model",
      cell: (m) => (
        <LinkButton onClick={() => setParam("model", m.id)}>
          {m.name}
          <span className="model-id">{m.id}</span>
        </LinkButton>
      ),
    },
    { header: "Context", cell: (m) => formatNumber(m.context_length), numeric: true },
    { header: "Prompt / 1M", cell: (m) => perMillionTokens(m.pricing.prompt), numeric: true },
    { header: "Completion / 1M", cell: (m) => perMillionTokens(m.pricing.completion), numeric: true },
    {
      header: "Cache read / 1M",
      cell: (m) =>
        hasPrice(m.pricing.input_cache_read) ? perMillionTokens(m.pricing.input_cache_read) : "—",
      numeric: true,
    },
    {
      header: "Cache write / 1M",
      cell: (m) =>
        hasPrice(m.pricing.input_cache_write) ? perMillionTokens(m.pricing.input_cache_write) : "—",
      numeric: true,
    },
    { header: "Input", cell: (m) => m.architecture.input_modalities.join(", ") },
    {
      header: "Supported parameters",
      cell: (m) => <span className="model-params">{m.supported_parameters.join(", ")}</span>,
    },
  ];

  return (
    <>
      <PageHeader
        title="Models"
        description="Every model the gateway serves, with prices per million tokens; open one for its providers' live health."
      />
      {open ? <ModelDetail key={open.id} model={open} onClose={() => setParam("model", "")} /> : null}
      {openId && state.status === "ok" && !open ? (
        <p className="notice" role="status">
          The model {openId} is not in the catalogue.
        </p>
      ) : null}
      <Filters filter={filter} sort={sort} options={options} onChange={setParam} />
      {state.status === "error" ? <ErrorState problem={state.problem} onRetry={reload} /> : null}
      {state.status === "loading" && !state.data ? <Loading label="Loading the catalogue…" /> : null}
      {state.data && models.length === 0 ? (
        <EmptyState title="The catalogue is empty">
          An operator imports models on the Catalogue page.
        </EmptyState>
      ) : null}
      {models.length > 0 && shown.length === 0 ? (
        <EmptyState title="No model matches">Clear the search or a filter.</EmptyState>
      ) : null}
      {shown.length > 0 ? (
        <DataTable
          label="Models"
          caption={`${shown.length} of ${models.length} models`}
          columns={columns}
          rows={shown}
          rowKey={(m) => m.id}
        />
      ) : null}
    </>
  );
}

function Filters(props: {
  filter: ModelFilter;
  sort: string;
  options: { parameters: string[]; modalities: string[] };
  onChange: (name: string, value: string) => void;
}) {
  const id = useId();
  return (
    <search className="models-filters" aria-label="Filter models">
      <div className="field">
        <label className="field-label" htmlFor={`${id}-q`}>
          Search models
        </label>
        <input
          id={`${id}-q`}
          type="search"
          value={props.filter.search}
          onChange={(event) => props.onChange("q", event.target.value)}
        />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-parameter`}>
          Supported parameter
        </label>
        <select
          id={`${id}-parameter`}
          value={props.filter.parameter}
          onChange={(event) => props.onChange("parameter", event.target.value)}
        >
          <option value="">Any</option>
          {props.options.parameters.map((parameter) => (
            <option key={parameter}>{parameter}</option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-modality`}>
          Modality
        </label>
        <select
          id={`${id}-modality`}
          value={props.filter.modality}
          onChange={(event) => props.onChange("modality", event.target.value)}
        >
          <option value="">Any</option>
          {props.options.modalities.map((modality) => (
            <option key={modality}>{modality}</option>
          ))}
        </select>
      </div>
      <OptionSelect
        id={`${id}-max-prompt`}
        label="Prompt price"
        value={props.filter.maxPrompt}
        options={MAX_PROMPT_PRICES}
        onChange={(value) => props.onChange("max_prompt", value)}
      />
      <OptionSelect
        id={`${id}-min-context`}
        label="Context"
        value={props.filter.minContext}
        options={MIN_CONTEXTS}
        onChange={(value) => props.onChange("min_context", value)}
      />
      <div className="field">
        <label className="field-label" htmlFor={`${id}-sort`}>
          Sort by
        </label>
        <select
          id={`${id}-sort`}
          value={props.sort}
          onChange={(event) => props.onChange("sort", event.target.value)}
        >
          {MODEL_SORTS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
    </search>
  );
}

function OptionSelect(props: {
  id: string;
  label: string;
  value: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={props.id}>
        {props.label}
      </label>
      <select id={props.id} value={props.value} onChange={(event) => props.onChange(event.target.value)}>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
