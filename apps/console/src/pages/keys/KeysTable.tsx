import { type Column, DataTable } from "../../components/DataTable";
import { formatDateTime, formatUsd, formatUsdOrNone } from "../../components/format";
import type { Key } from "./form";

/** One row per key: what it is, its usage and limit, its restrictions, and its actions. */
export function KeysTable(props: {
  keys: Key[];
  busyHash: string | null;
  onEdit: (key: Key) => void;
  onToggle: (key: Key) => void;
  onDelete: (key: Key) => void;
}) {
  const columns: Column<Key>[] = [
    {
      header: "Name",
      cell: (key) => (
        <>
          <strong>{key.name}</strong>
          <br />
          <span className="muted">{key.label}</span>{" "}
          {key.key_type === "management" ? <span className="badge">management</span> : null}{" "}
          {key.disabled ? <span className="badge badge-off">disabled</span> : null}
        </>
      ),
    },
    {
      header: "Usage",
      numeric: true,
      cell: (key) => (
        <>
          {formatUsd(key.usage)}
          <br />
          <span className="muted usage-periods">
            today {formatUsd(key.usage_daily)} · week {formatUsd(key.usage_weekly)} · month{" "}
            {formatUsd(key.usage_monthly)}
          </span>
          {key.byok_usage > 0 ? (
            <>
              <br />
              <span className="muted">BYOK {formatUsd(key.byok_usage)}</span>
            </>
          ) : null}
        </>
      ),
    },
    {
      header: "Limit",
      numeric: true,
      cell: (key) =>
        key.limit === null ? (
          <span className="muted">No limit</span>
        ) : (
          <>
            {formatUsd(key.limit)} {key.limit_reset ?? "lifetime"}
            <br />
            <span className="muted">{formatUsdOrNone(key.limit_remaining)} left</span>
          </>
        ),
    },
    {
      header: "Restrictions",
      cell: (key) => (
        <>
          <span>Providers: {key.allowed_providers?.join(", ") || "any"}</span>
          <br />
          <span>Models: {key.allowed_models?.join(", ") || "any"}</span>
        </>
      ),
    },
    { header: "Expires", cell: (key) => (key.expires_at ? formatDateTime(key.expires_at) : "Never") },
    { header: "Created", cell: (key) => formatDateTime(key.created_at) },
    {
      header: "Actions",
      cell: (key) => (
        <div className="row-actions">
          <button type="button" className="button button-small" onClick={() => props.onEdit(key)}>
            Edit
          </button>
          <button
            type="button"
            className="button button-small"
            disabled={props.busyHash === key.hash}
            onClick={() => props.onToggle(key)}
          >
            {key.disabled ? "Enable" : "Disable"}
          </button>
          <button type="button" className="button button-small" onClick={() => props.onDelete(key)}>
            Delete
          </button>
        </div>
      ),
    },
  ];
  return <DataTable label="Keys" columns={columns} rows={props.keys} rowKey={(key) => key.hash} stacked />;
}
