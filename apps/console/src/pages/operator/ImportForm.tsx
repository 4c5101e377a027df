import { type ChangeEvent, type FormEvent, useId, useState } from "react";
import { unwrap, useApi } from "../../api/client";
import { type ApiProblem, problemOf } from "../../api/errors";
import { ErrorState } from "../../components/ErrorState";
import { formatNumber } from "../../components/format";
import { Loading } from "../../components/Loading";
import {
  type DiffEntry,
  detectFormat,
  type HighPrice,
  highPriceText,
  type ImportFormat,
} from "./catalog-forms";
import { DiffTable } from "./DiffTable";

interface ImportResult {
  applied: boolean;
  version: string;
  version_before: string | null;
  diff: DiffEntry[];
  high_prices: HighPrice[];
  models: number;
  skipped: string[];
}

/** The API's limit on an import's content (POST /api/v1/admin/catalog/import, `content.maxLength`). */
const MAX_CONTENT = 9_000_000;

/**
 * Import from a LiteLLM model_prices_and_context_window.json or an OpenRouter models list, pasted or
 * uploaded: "Preview import" is the API's dry run (the diff, nothing written), "Apply import" writes it.
 */
export function ImportForm(props: { onApplied: () => void }) {
  const api = useApi();
  const id = useId();
  const [content, setContent] = useState("");
  const [format, setFormat] = useState<ImportFormat>("litellm");
  const [provider, setProvider] = useState("");
  const [skipUnknown, setSkipUnknown] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | string | null>(null);
  const [preview, setPreview] = useState<ImportResult | null>(null);
  const [applied, setApplied] = useState<ImportResult | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const suspect = preview?.high_prices ?? [];

  const changeContent = (text: string) => {
    setContent(text);
    setConfirmed(false);
    setPreview(null);
    setApplied(null);
    const detected = detectFormat(text);
    if (detected) setFormat(detected);
  };

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (file) changeContent(await file.text());
  }

  async function run(apply: boolean) {
    if (detectFormat(content) === undefined) {
      setProblem("The content is not a JSON object: paste or upload the catalogue file itself.");
      return;
    }
    if (content.length > MAX_CONTENT) {
      setProblem(`The file is over the import limit of ${formatNumber(MAX_CONTENT)} characters.`);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const body = {
        format,
        content,
        apply,
        skip_unknown_providers: skipUnknown,
        // Only after the operator ticked "These prices are right" for the preview's high prices.
        confirm_high_prices: apply && suspect.length > 0 && confirmed,
        ...(format === "openrouter" && provider.trim() ? { provider: provider.trim() } : {}),
      };
      const result = await unwrap(api.POST("/api/v1/admin/catalog/import", { body }));
      if (apply) {
        setApplied(result);
        setPreview(null);
        props.onApplied();
      } else {
        setPreview(result);
      }
    } catch (thrown) {
      setProblem(problemOf(thrown));
    } finally {
      setBusy(false);
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(false);
  };

  return (
    <section aria-labelledby={`${id}-title`} className="operator-section">
      <h2 id={`${id}-title`}>Import</h2>
      <form className="form operator-form" onSubmit={submit}>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-content`}>
            Catalogue JSON
          </label>
          <textarea
            id={`${id}-content`}
            rows={6}
            value={content}
            spellCheck={false}
            onChange={(event) => changeContent(event.target.value)}
            aria-describedby={`${id}-content-hint`}
          />
          <span className="field-hint" id={`${id}-content-hint`}>
            LiteLLM's model_prices_and_context_window.json, or an OpenRouter GET /api/v1/models answer.
          </span>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-file`}>
            Or upload a file
          </label>
          <input
            id={`${id}-file`}
            type="file"
            accept="application/json,.json"
            onChange={(e) => void upload(e)}
          />
        </div>
        <div className="form-grid">
          <div className="field">
            <label className="field-label" htmlFor={`${id}-format`}>
              Format
            </label>
            <select
              id={`${id}-format`}
              value={format}
              onChange={(event) => setFormat(event.target.value === "openrouter" ? "openrouter" : "litellm")}
            >
              <option value="litellm">LiteLLM</option>
              <option value="openrouter">OpenRouter</option>
            </select>
          </div>
          {format === "openrouter" ? (
            <div className="field">
              <label className="field-label" htmlFor={`${id}-provider`}>
                Served through provider
              </label>
              <input
                id={`${id}-provider`}
                value={provider}
                placeholder="openrouter"
                onChange={(event) => setProvider(event.target.value)}
              />
            </div>
          ) : null}
        </div>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={skipUnknown}
            onChange={(event) => setSkipUnknown(event.target.checked)}
          />
          <span>Skip models of providers the gateway does not know (otherwise the import is refused)</span>
        </label>
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy || !content.trim()}>
            Preview import
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={busy || preview === null || (suspect.length > 0 && !confirmed)}
            onClick={() => void run(true)}
          >
            Apply import
          </button>
        </div>
      </form>
      {busy ? <Loading label="Sending the file…" /> : null}
      {typeof problem === "string" ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : problem ? (
        <ErrorState problem={problem} />
      ) : null}
      {suspect.length > 0 ? (
        <SuspectPricesWarning suspect={suspect} confirmed={confirmed} onConfirm={setConfirmed} />
      ) : null}
      {preview ? <ImportSummary result={preview} /> : null}
      {applied ? <ImportSummary result={applied} /> : null}
    </section>
  );
}

function ImportSummary(props: { result: ImportResult }) {
  const r = props.result;
  return (
    <div className="import-summary" role="status">
      <p>
        {r.applied ? "Applied" : "Preview (nothing written yet)"}: {formatNumber(r.models)} models,{" "}
        {formatNumber(r.diff.length)} field changes, version {r.version_before ?? "none"} → {r.version}.
        {r.skipped.length > 0
          ? ` Skipped ${r.skipped.length}: ${r.skipped.slice(0, 10).join(", ")}${r.skipped.length > 10 ? "…" : ""}.`
          : ""}
      </p>
      <DiffTable
        label={r.applied ? "Fields the import changed" : "Fields the import would change"}
        diff={r.diff}
      />
    </div>
  );
}

/**
 * Prices above $1,000 per 1M tokens (or $10 per request or image) are far beyond any model's and
 * usually a unit mistake (per token typed as per million): the API refuses them unless the request
 * confirms them, and Apply waits for the operator to.
 */
function SuspectPricesWarning(props: {
  suspect: HighPrice[];
  confirmed: boolean;
  onConfirm: (confirmed: boolean) => void;
}) {
  const shown = props.suspect.slice(0, 10);
  return (
    <div className="error-state" role="alert">
      <p>
        {props.suspect.length === 1 ? "One price" : `${props.suspect.length} prices`} above $1,000 per 1M
        tokens (or $10 per request or image); check the file's unit before applying:
      </p>
      <ul className="error-problems">
        {shown.map((price) => (
          <li key={`${price.target} ${price.price}`}>{highPriceText(price)}</li>
        ))}
        {props.suspect.length > shown.length ? (
          <li>…and {props.suspect.length - shown.length} more</li>
        ) : null}
      </ul>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={props.confirmed}
          onChange={(event) => props.onConfirm(event.target.checked)}
        />
        <span>These prices are right: apply them</span>
      </label>
    </div>
  );
}
