import type { components } from "@gw/client";
import { unwrap, useApi } from "../../api/client";
import { useQuery } from "../../api/use-query";
import { CursorPager, useCursorPages } from "../../components/CursorPager";
import { type Column, DataTable } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { ErrorState } from "../../components/ErrorState";
import { formatDateTime, formatUsd } from "../../components/format";
import { Loading } from "../../components/Loading";
import { PageHeader } from "../../components/PageHeader";
import { balance, signedUsd, transactionLabel } from "./label";

type Transaction = components["schemas"]["CreditTransaction"];

/**
 * The account's credit transactions (`GET /api/v1/credits/transactions`): each purchase and grant, and
 * each UTC day's usage as one line (the requests themselves are on the Generations page), newest first,
 * under the balance (`GET /api/v1/credits`).
 */
export function CreditsPage() {
  const api = useApi();
  const pages = useCursorPages();
  const totals = useQuery(() => unwrap(api.GET("/api/v1/credits")), [api]);
  const list = useQuery(
    () =>
      unwrap(
        api.GET("/api/v1/credits/transactions", {
          params: { query: { limit: 25, ...(pages.cursor ? { cursor: pages.cursor } : {}) } },
        }),
      ),
    [api, pages.cursors],
  );
  const total = totals.state.data?.data;

  const columns: Column<Transaction>[] = [
    { header: "Date", cell: (t) => (t.date ? `${t.date} (UTC)` : formatDateTime(t.created_at)) },
    { header: "Transaction", cell: transactionLabel },
    { header: "Reference", cell: (t) => (t.reference ? <code>{t.reference}</code> : "—") },
    { header: "Amount", cell: (t) => signedUsd(t.amount), numeric: true },
  ];

  return (
    <>
      <PageHeader
        title="Credits"
        description="What was credited to the account and what its requests spent, day by day."
      />
      {totals.state.status === "error" ? (
        <ErrorState problem={totals.state.problem} onRetry={totals.reload} />
      ) : null}
      {total ? (
        <dl className="figures" aria-label="Credit totals">
          <Stat label="Balance" value={formatUsd(balance(total))} />
          <Stat label="Credited" value={formatUsd(total.total_credits)} />
          <Stat label="Spent" value={formatUsd(total.total_usage)} />
        </dl>
      ) : null}
      <section aria-labelledby="transactions-title">
        <h2 id="transactions-title">Transactions</h2>
        {list.state.status === "error" ? (
          <ErrorState problem={list.state.problem} onRetry={list.reload} />
        ) : null}
        {list.state.status === "loading" && !list.state.data ? (
          <Loading label="Loading transactions…" />
        ) : null}
        {list.state.data && list.state.data.data.length === 0 && pages.page === 0 ? (
          <EmptyState title="No transactions yet">
            Credits added to the account and each day's usage appear here.
          </EmptyState>
        ) : null}
        {list.state.data && list.state.data.data.length > 0 ? (
          <DataTable
            label="Credit transactions"
            columns={columns}
            rows={list.state.data.data}
            rowKey={(t) => `${t.kind} ${t.created_at} ${t.reference ?? ""} ${t.amount}`}
            stacked
          />
        ) : null}
        <CursorPager
          pages={pages}
          nextCursor={list.state.data?.next_cursor}
          loading={list.state.status === "loading"}
        />
      </section>
    </>
  );
}

function Stat(props: { label: string; value: string }) {
  return (
    <div className="figure">
      <dt>{props.label}</dt>
      <dd>{props.value}</dd>
    </div>
  );
}
