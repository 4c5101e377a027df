import { type Column, DataTable } from "../../components/DataTable";
import { type DiffEntry, diffValue } from "./catalog-forms";

const COLUMNS: Column<DiffEntry & { index: number }>[] = [
  { header: "Target", cell: (d) => d.target },
  { header: "Field", cell: (d) => d.field },
  { header: "Old", cell: (d) => <span className="diff-value">{diffValue(d.old)}</span> },
  { header: "New", cell: (d) => <span className="diff-value">{diffValue(d.new)}</span> },
];

/** The fields a catalogue change touched (or would touch, for a dry run), old → new. */
export function DiffTable(props: { label: string; diff: DiffEntry[]; limit?: number }) {
  const limit = props.limit ?? 200;
  if (props.diff.length === 0) return <p className="muted">No field changes.</p>;
  const rows = props.diff.slice(0, limit).map((entry, index) => ({ ...entry, index }));
  return (
    <>
      <DataTable label={props.label} columns={COLUMNS} rows={rows} rowKey={(d) => String(d.index)} />
      {props.diff.length > limit ? (
        <p className="muted">
          Showing {limit} of {props.diff.length} field changes.
        </p>
      ) : null}
    </>
  );
}
