import { unwrap, useApi } from "../../api/client";
import { useQuery } from "../../api/use-query";
import { DataTable } from "../../components/DataTable";
import { ErrorState } from "../../components/ErrorState";
import { formatDateTime, formatUsd, formatUsdOrNone } from "../../components/format";
import { Loading } from "../../components/Loading";
import { PageHeader } from "../../components/PageHeader";
import { useSignedIn } from "../../session/session-context";

/**
 * A wallet session's Usage: its JWT is an API-key-like credential, so the management routes (activity,
 * credits, keys) refuse it; `GET /api/v1/key` (the credential's own usage and limit) is what it can read.
 */
export function WalletUsage() {
  const api = useApi();
  const session = useSignedIn();
  const info = useQuery(() => unwrap(api.GET("/api/v1/key")), [api]);
  const key = info.state.data?.data;
  return (
    <>
      <PageHeader
        title="Usage"
        description={`The wallet ${session.wallet?.accountId ?? ""}'s spend; its sign-in expires ${formatDateTime(session.wallet?.expiresAt)}.`}
      />
      {info.state.status === "error" ? (
        <ErrorState problem={info.state.problem} onRetry={info.reload} />
      ) : null}
      {key === undefined ? (
        info.state.status === "loading" ? (
          <Loading />
        ) : null
      ) : (
        <>
          <dl className="figures">
            <div className="figure">
              <dt>Spend</dt>
              <dd>{formatUsd(key.usage)}</dd>
            </div>
            <div className="figure">
              <dt>Limit remaining</dt>
              <dd>{formatUsdOrNone(key.limit_remaining)}</dd>
            </div>
          </dl>
          <DataTable
            label="Wallet spend"
            rowKey={(row) => row.period}
            columns={[
              { header: "Period (UTC)", cell: (row) => row.period },
              { header: "Spend", cell: (row) => formatUsd(row.usage), numeric: true },
              { header: "BYOK spend", cell: (row) => formatUsd(row.byok), numeric: true },
            ]}
            rows={[
              { period: "Today", usage: key.usage_daily, byok: key.byok_usage_daily },
              { period: "This week", usage: key.usage_weekly, byok: key.byok_usage_weekly },
              { period: "This month", usage: key.usage_monthly, byok: key.byok_usage_monthly },
              { period: "All time", usage: key.usage, byok: key.byok_usage },
            ]}
          />
          <p className="muted">
            Per-day charts, balance and keys need a management key: the wallet's sign-in credential works like
            an API key (inference, its own usage, generation lookups), not like a management key.
          </p>
        </>
      )}
    </>
  );
}
