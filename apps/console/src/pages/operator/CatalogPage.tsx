import { useState } from "react";
import { unwrap, useApi } from "../../api/client";
import { type ApiProblem, problemOf } from "../../api/errors";
import { useQuery } from "../../api/use-query";
import { type Column, DataTable } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { ErrorState } from "../../components/ErrorState";
import { formatDateTime, formatNumber } from "../../components/format";
import { Loading } from "../../components/Loading";
import { PageHeader } from "../../components/PageHeader";
import { perMillionTokens } from "../../components/pricing";
import { CatalogChanges } from "./CatalogChanges";
import { ImportForm } from "./ImportForm";
import { PriceForm } from "./PriceForm";
import "./operator.css";

/**
 * The operator's catalogue (`/api/v1/admin/catalog*`): the served version and its models, disable and
 * enable, price overrides, import from a LiteLLM or OpenRouter file (dry run first), and the history.
 */
export function OperatorCatalogPage() {
  const api = useApi();
  const catalog = useQuery(() => unwrap(api.GET("/api/v1/admin/catalog")), [api]);
  const changes = useQuery(() => unwrap(api.GET("/api/v1/admin/catalog/changes")), [api]);
  const [action, setAction] = useState<{
    busy: string | null;
    problem: ApiProblem | null;
    done: string | null;
  }>({
    busy: null,
    problem: null,
    done: null,
  });
  const refresh = () => {
    catalog.reload();
    changes.reload();
  };

  async function toggle(model: string, provider: string | null, enable: boolean) {
    const target = provider ? `${model} at ${provider}` : model;
    setAction({ busy: target, problem: null, done: null });
    try {
      const body = provider ? { model, provider } : { model };
      const path = enable ? "/api/v1/admin/catalog/enable" : "/api/v1/admin/catalog/disable";
      const answer = await unwrap(api.POST(path, { body }));
      setAction({
        busy: null,
        problem: null,
        done: `${enable ? "Enabled" : "Disabled"} ${target} (version ${answer.version}).`,
      });
      refresh();
    } catch (thrown) {
      setAction({ busy: null, problem: problemOf(thrown), done: null });
    }
  }

  const state = catalog.state;
  const models = state.data?.data ?? [];
  type Row = (typeof models)[number];
  const columns: Column<Row>[] = [
    { header: "Model", cell: (m) => <code>{m.id}</code> },
    { header: "Name", cell: (m) => m.name },
    { header: "Context", cell: (m) => formatNumber(m.context_length), numeric: true },
    {
      header: "Endpoints (prompt / completion per 1M)",
      cell: (m) => (
        <ul className="plain-list">
          {m.endpoints.map((e) => (
            <li key={e.provider}>
              {e.provider}: {perMillionTokens(e.pricing.prompt)} / {perMillionTokens(e.pricing.completion)}{" "}
              <button
                type="button"
                className="button button-small"
                disabled={action.busy !== null}
                onClick={() => void toggle(m.id, e.provider, false)}
              >
                Disable
                <span className="visually-hidden">
                  {" "}
                  {m.id} at {e.provider}
                </span>
              </button>
            </li>
          ))}
        </ul>
      ),
    },
    {
      header: "Actions",
      cell: (m) => (
        <button
          type="button"
          className="button button-small"
          disabled={action.busy !== null}
          onClick={() => void toggle(m.id, null, false)}
        >
          Disable<span className="visually-hidden"> {m.id}</span>
        </button>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Catalogue"
        description="The models and prices every edge serves. Changes take effect on all edges within seconds."
      />
      {state.status === "error" ? <ErrorState problem={state.problem} onRetry={catalog.reload} /> : null}
      {state.status === "loading" && !state.data ? <Loading label="Loading the catalogue…" /> : null}
      {state.data ? (
        <dl className="figures">
          <div className="figure">
            <dt>Version</dt>
            <dd className="catalog-version">{state.data.version ?? "none yet"}</dd>
          </div>
          <div className="figure">
            <dt>Models</dt>
            <dd>{formatNumber(models.length)}</dd>
          </div>
          <div className="figure">
            <dt>Disabled</dt>
            <dd>{formatNumber(state.data.disabled.length)}</dd>
          </div>
        </dl>
      ) : null}
      {action.busy ? <Loading label={`Updating ${action.busy}…`} /> : null}
      {action.problem ? <ErrorState problem={action.problem} /> : null}
      {action.done ? (
        <p className="notice" role="status">
          {action.done}
        </p>
      ) : null}

      <ImportForm onApplied={refresh} />
      <PriceForm models={models} onApplied={refresh} />

      <section aria-labelledby="disabled-title">
        <h2 id="disabled-title">Disabled</h2>
        {state.data && state.data.disabled.length === 0 ? (
          <p className="muted">Nothing is disabled.</p>
        ) : null}
        {state.data && state.data.disabled.length > 0 ? (
          <ul className="plain-list">
            {state.data.disabled.map((d) => (
              <li key={`${d.model} ${d.provider ?? ""}`}>
                <code>{d.model}</code>
                {d.provider ? ` at ${d.provider}` : " (whole model)"}{" "}
                <button
                  type="button"
                  className="button button-small"
                  disabled={action.busy !== null}
                  onClick={() => void toggle(d.model, d.provider, true)}
                >
                  Enable
                  <span className="visually-hidden">
                    {" "}
                    {d.provider ? `${d.model} at ${d.provider}` : d.model}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </section>

      <section aria-labelledby="served-title">
        <h2 id="served-title">Served models</h2>
        {state.data && models.length === 0 ? (
          <EmptyState title="The catalogue is empty">Import a LiteLLM or OpenRouter file above.</EmptyState>
        ) : null}
        {models.length > 0 ? (
          <DataTable label="Served models" columns={columns} rows={models} rowKey={(m) => m.id} />
        ) : null}
      </section>

      <CatalogChanges query={changes} formatAt={formatDateTime} />
    </>
  );
}
