import { useState } from "react";
import { unwrap, useApi } from "../../api/client";
import { useQuery } from "../../api/use-query";
import { CursorPager, useCursorPages } from "../../components/CursorPager";
import { type Column, DataTable } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { ErrorState } from "../../components/ErrorState";
import { formatDateTime, formatUsd } from "../../components/format";
import { Loading } from "../../components/Loading";
import { PageHeader } from "../../components/PageHeader";
import { AddCreditsDialog, CreateAccountDialog, NewAccountKeyDialog } from "./AccountDialogs";
import "./operator.css";

const PAGE_SIZE = 50;

type Open =
  | { dialog: "create" }
  | { dialog: "key"; name: string; managementKey: string }
  | { dialog: "credits"; account: { id: string; name: string } }
  | null;

/** Every account with its balance (operator only): create one, add credits to one. */
export function OperatorAccountsPage() {
  const api = useApi();
  const pages = useCursorPages();
  const { state, reload } = useQuery(() => {
    const cursor = pages.cursor;
    const query = cursor ? { limit: PAGE_SIZE, cursor } : { limit: PAGE_SIZE };
    return unwrap(api.GET("/api/v1/admin/accounts", { params: { query } }));
  }, [api, pages.cursors]);
  const [open, setOpen] = useState<Open>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const accounts = state.data?.data ?? [];
  type Account = (typeof accounts)[number];
  const columns: Column<Account>[] = [
    {
      header: "Account",
      cell: (a) => (
        <>
          {/* Cut to one line (the whole name in its title): a long name must not push Balance and
              Add credits off screen. */}
          <span className="account-name" title={a.name}>
            {a.name}
          </span>
          <span className="model-id">{a.id}</span>
        </>
      ),
    },
    { header: "Created", cell: (a) => formatDateTime(a.created_at) },
    { header: "Balance", cell: (a) => formatUsd(a.credits.balance), numeric: true },
    { header: "Credits", cell: (a) => formatUsd(a.credits.total_credits), numeric: true },
    { header: "Usage", cell: (a) => formatUsd(a.credits.total_usage), numeric: true },
    { header: "Free tier", cell: (a) => (a.credits.is_free_tier ? "Yes" : "No") },
    {
      header: "Restrictions",
      cell: (a) =>
        [
          a.allowed_providers?.length ? `providers: ${a.allowed_providers.join(", ")}` : "",
          a.allowed_models?.length ? `models: ${a.allowed_models.join(", ")}` : "",
        ]
          .filter(Boolean)
          .join("; ") || "None",
    },
    {
      header: "Actions",
      cell: (a) => (
        <button
          type="button"
          className="button button-small"
          onClick={() => setOpen({ dialog: "credits", account: { id: a.id, name: a.name } })}
        >
          Add credits<span className="visually-hidden"> to {a.name}</span>
        </button>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Accounts"
        description="Every account on this gateway with its credits; create accounts and add credits."
        actions={
          <button
            type="button"
            className="button button-primary"
            onClick={() => setOpen({ dialog: "create" })}
          >
            Create account
          </button>
        }
      />
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {state.status === "error" ? <ErrorState problem={state.problem} onRetry={reload} /> : null}
      {state.status === "loading" && !state.data ? <Loading label="Loading the accounts…" /> : null}
      {state.data && accounts.length === 0 ? (
        <EmptyState title="No account yet">Create one; its management key is shown once.</EmptyState>
      ) : null}
      {accounts.length > 0 ? (
        <DataTable label="Accounts" columns={columns} rows={accounts} rowKey={(a) => a.id} stacked />
      ) : null}
      <CursorPager pages={pages} nextCursor={state.data?.next_cursor} loading={state.status === "loading"} />

      {open?.dialog === "create" ? (
        <CreateAccountDialog
          onClose={() => setOpen(null)}
          onCreated={(created) => {
            setOpen({ dialog: "key", ...created });
            setNotice(`Created ${created.name}.`);
            pages.reset();
            reload();
          }}
        />
      ) : null}
      {open?.dialog === "key" ? (
        <NewAccountKeyDialog
          name={open.name}
          managementKey={open.managementKey}
          onDone={() => setOpen(null)}
        />
      ) : null}
      {open?.dialog === "credits" ? (
        <AddCreditsDialog
          account={open.account}
          onClose={() => setOpen(null)}
          onGranted={(message) => {
            setOpen(null);
            setNotice(message);
            reload();
          }}
        />
      ) : null}
    </>
  );
}
