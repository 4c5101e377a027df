import type { Query } from "../../api/use-query";
import { EmptyState } from "../../components/EmptyState";
import { ErrorState } from "../../components/ErrorState";
import { Loading } from "../../components/Loading";
import type { DiffEntry } from "./catalog-forms";
import { DiffTable } from "./DiffTable";

interface Change {
  id: string;
  at: string;
  actor: string;
  action: string;
  version_before: string | null;
  version_after: string;
  diff: DiffEntry[];
}

/** The catalogue's history, newest first: who changed what, when, each field old → new. */
export function CatalogChanges(props: {
  query: Query<{ data: Change[] }>;
  formatAt: (iso: string) => string;
}) {
  const { state, reload } = props.query;
  return (
    <section aria-labelledby="changes-title">
      <h2 id="changes-title">Changes</h2>
      {state.status === "error" ? <ErrorState problem={state.problem} onRetry={reload} /> : null}
      {state.status === "loading" && !state.data ? <Loading label="Loading the history…" /> : null}
      {state.data && state.data.data.length === 0 ? <EmptyState title="No change yet" /> : null}
      {state.data && state.data.data.length > 0 ? (
        <ol className="changes">
          {state.data.data.map((change) => (
            <li key={change.id}>
              <details>
                <summary>
                  {props.formatAt(change.at)} · {change.action} by {change.actor} · {change.diff.length} field
                  {change.diff.length === 1 ? "" : "s"} · version {change.version_after}
                </summary>
                <DiffTable label={`Fields changed by ${change.action} at ${change.at}`} diff={change.diff} />
              </details>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
