import { type FormEvent, useId, useState } from "react";
import { unwrap, useApi } from "../../api/client";
import { type ApiProblem, problemOf } from "../../api/errors";
import { ErrorState } from "../../components/ErrorState";
import { type DiffEntry, EMPTY_PRICES, PRICE_FIELDS, type PriceField, pricingBody } from "./catalog-forms";
import { DiffTable } from "./DiffTable";

interface CatalogRow {
  id: string;
  endpoints: Array<{ provider: string }>;
}

/** The API's reason for a price above its threshold sent without confirm_high_prices. */
const CONFIRMATION = "price_confirmation_required";

/** Overrides some prices of one model at one provider (POST /api/v1/admin/catalog/prices). */
export function PriceForm(props: { models: CatalogRow[]; onApplied: () => void }) {
  const api = useApi();
  const id = useId();
  const [model, setModel] = useState("");
  const [provider, setProvider] = useState("");
  const [prices, setPrices] = useState(EMPTY_PRICES);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | { field: PriceField; message: string } | null>(null);
  const [result, setResult] = useState<{ version: string; diff: DiffEntry[] } | null>(null);
  // Ticked by the operator after the API refused a price as too high (price_confirmation_required).
  const [confirmed, setConfirmed] = useState(false);
  const askToConfirm = problem !== null && "status" in problem && problem.reason === CONFIRMATION;
  const providers = props.models.find((m) => m.id === model)?.endpoints.map((e) => e.provider) ?? [];

  async function submit(event: FormEvent) {
    event.preventDefault();
    const body = pricingBody(prices);
    if (!body.ok) {
      setProblem(body);
      return;
    }
    setBusy(true);
    setProblem(null);
    setResult(null);
    try {
      const answer = await unwrap(
        api.POST("/api/v1/admin/catalog/prices", {
          body: { model, provider, pricing: body.pricing, confirm_high_prices: askToConfirm && confirmed },
        }),
      );
      setResult(answer);
      setPrices(EMPTY_PRICES);
      setConfirmed(false);
      props.onApplied();
    } catch (thrown) {
      setProblem(problemOf(thrown));
    } finally {
      setBusy(false);
    }
  }

  const fieldProblem = problem && "field" in problem && !("status" in problem) ? problem : null;
  return (
    <section aria-labelledby={`${id}-title`} className="operator-section">
      <h2 id={`${id}-title`}>Price override</h2>
      <form className="form operator-form" onSubmit={(event) => void submit(event)}>
        <div className="form-grid">
          <div className="field">
            <label className="field-label" htmlFor={`${id}-model`}>
              Model
            </label>
            <select
              id={`${id}-model`}
              value={model}
              onChange={(event) => {
                setModel(event.target.value);
                setProvider("");
              }}
            >
              <option value="">Choose a model</option>
              {props.models.map((m) => (
                <option key={m.id}>{m.id}</option>
              ))}
            </select>
          </div>
          <div className="field">
            <label className="field-label" htmlFor={`${id}-provider`}>
              Provider
            </label>
            <select
              id={`${id}-provider`}
              value={provider}
              disabled={providers.length === 0}
              onChange={(event) => setProvider(event.target.value)}
            >
              <option value="">Choose a provider</option>
              {providers.map((p) => (
                <option key={p}>{p}</option>
              ))}
            </select>
          </div>
          {PRICE_FIELDS.map(({ field, label }) => (
            <div className="field" key={field}>
              <label className="field-label" htmlFor={`${id}-${field}`}>
                {label}
              </label>
              <input
                id={`${id}-${field}`}
                inputMode="decimal"
                value={prices[field]}
                aria-invalid={fieldProblem?.field === field}
                onChange={(event) => {
                  setPrices((p) => ({ ...p, [field]: event.target.value }));
                  setConfirmed(false);
                }}
              />
            </div>
          ))}
        </div>
        <p className="field-hint">Leave a price empty to keep it as it is.</p>
        {askToConfirm ? (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={confirmed}
              onChange={(event) => setConfirmed(event.target.checked)}
            />
            <span>This price is right: set it</span>
          </label>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={busy || !model || !provider}>
            Set prices
          </button>
        </div>
      </form>
      {fieldProblem ? (
        <p className="field-error" role="alert">
          {fieldProblem.message}
        </p>
      ) : problem && "status" in problem ? (
        <ErrorState problem={problem} />
      ) : null}
      {result ? (
        <div role="status">
          <p>Prices set (version {result.version}).</p>
          <DiffTable label="Fields the price override changed" diff={result.diff} />
        </div>
      ) : null}
    </section>
  );
}
