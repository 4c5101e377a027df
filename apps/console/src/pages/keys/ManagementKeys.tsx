import type { components } from "@gw/client";
import { type ReactNode, useState } from "react";
import { unwrap, useApi } from "../../api/client";
import { type ApiProblem, problemOf } from "../../api/errors";
import { useQuery } from "../../api/use-query";
import { type Column, DataTable } from "../../components/DataTable";
import { Dialog } from "../../components/Dialog";
import { ErrorState } from "../../components/ErrorState";
import { formatDateTime } from "../../components/format";
import { Loading } from "../../components/Loading";
import { useSession, useSignedIn } from "../../session/session-context";
import { SecretDialog } from "./SecretDialog";
import { labelOf } from "./session-key";

type ManagementKey = components["schemas"]["Key"];

type Open =
  | { dialog: "rotate"; key: ManagementKey }
  | { dialog: "revoke"; key: ManagementKey }
  | { dialog: "secret"; name: string; secret: string }
  | null;

export const REVOKED_SESSION_NOTICE = "The management key of this session was revoked; sign in with another.";

/**
 * The account's management keys (`/api/v1/management-keys`): rotate one (a new secret, shown once; the
 * old one is refused on every edge within a second) or revoke it. The key this session signed in with
 * is marked: rotating it keeps the session on the new secret, revoking it ends the session. The API
 * refuses to revoke the account's last usable management key.
 */
export function ManagementKeys() {
  const api = useApi();
  const session = useSignedIn();
  const { signIn, signOut } = useSession();
  const list = useQuery(() => unwrap(api.GET("/api/v1/management-keys")), [api]);
  const [open, setOpen] = useState<Open>(null);
  const [notice, setNotice] = useState("");
  const ownLabel = labelOf(session.credential);
  const isOwn = (key: ManagementKey) => key.label === ownLabel;

  const columns: Column<ManagementKey>[] = [
    {
      header: "Name",
      cell: (k) => (
        <>
          <strong>{k.name}</strong>
          <br />
          <code className="muted">{k.label}</code>{" "}
          {isOwn(k) ? <span className="badge">this session</span> : null}
        </>
      ),
    },
    { header: "Status", cell: (k) => (k.disabled ? "Disabled" : "Active") },
    { header: "Expires", cell: (k) => (k.expires_at ? formatDateTime(k.expires_at) : "Never") },
    { header: "Created", cell: (k) => formatDateTime(k.created_at) },
    {
      header: "Actions",
      cell: (k) => (
        <div className="row-actions">
          <button
            type="button"
            className="button button-small"
            onClick={() => setOpen({ dialog: "rotate", key: k })}
          >
            Rotate<span className="visually-hidden"> {k.name}</span>
          </button>
          <button
            type="button"
            className="button button-small"
            onClick={() => setOpen({ dialog: "revoke", key: k })}
          >
            Revoke<span className="visually-hidden"> {k.name}</span>
          </button>
        </div>
      ),
    },
  ];

  const keys = list.state.data?.data ?? [];
  return (
    <section aria-labelledby="management-keys-title" className="management-keys">
      <h2 id="management-keys-title">Management keys</h2>
      <p className="muted">
        Management keys sign in here and manage the account's keys; they cannot call models. Rotate a key to
        replace its secret, or revoke it: the old secret is refused everywhere within a second.
      </p>
      <p className="muted" role="status">
        {notice}
      </p>
      {list.state.status === "error" ? (
        <ErrorState problem={list.state.problem} onRetry={list.reload} />
      ) : null}
      {list.state.status === "loading" && !list.state.data ? (
        <Loading label="Loading management keys…" />
      ) : null}
      {keys.length > 0 ? (
        <DataTable label="Management keys" columns={columns} rows={keys} rowKey={(k) => k.hash} stacked />
      ) : null}
      {open?.dialog === "rotate" ? (
        <ConfirmDialog
          title="Rotate management key"
          action="Rotate key"
          onClose={() => setOpen(null)}
          run={async () => {
            const rotated = await unwrap(
              api.POST("/api/v1/management-keys/{hash}/rotate", {
                params: { path: { hash: open.key.hash } },
              }),
            );
            setNotice(`Management key “${open.key.name}” rotated.`);
            setOpen({ dialog: "secret", name: rotated.data.name, secret: rotated.key });
            // This session's own key: carry on with the new secret (the old one is already refused); the
            // new credential's client reloads every list, a reload now would still send the old one.
            if (isOwn(open.key)) signIn({ ...session, credential: rotated.key });
            else list.reload();
          }}
        >
          Rotate <strong>{open.key.name}</strong> (<code>{open.key.label}</code>)? A new secret is shown once;
          the current one stops working everywhere within a second.
          {isOwn(open.key) ? " This session continues with the new secret." : ""}
        </ConfirmDialog>
      ) : null}
      {open?.dialog === "revoke" ? (
        <ConfirmDialog
          title="Revoke management key"
          action="Revoke key"
          danger
          onClose={() => setOpen(null)}
          run={async () => {
            await unwrap(
              api.DELETE("/api/v1/management-keys/{hash}", { params: { path: { hash: open.key.hash } } }),
            );
            if (isOwn(open.key)) {
              signOut(REVOKED_SESSION_NOTICE);
              return;
            }
            setNotice(`Management key “${open.key.name}” revoked.`);
            setOpen(null);
            list.reload();
          }}
        >
          Revoke <strong>{open.key.name}</strong> (<code>{open.key.label}</code>)? It is refused everywhere
          within a second, and this cannot be undone.
          {isOwn(open.key) ? " This session signed in with it and ends." : ""}
        </ConfirmDialog>
      ) : null}
      {open?.dialog === "secret" ? (
        <SecretDialog
          name={open.name}
          secret={open.secret}
          note="Sign in and manage the account with it from now on."
          onDone={() => setOpen(null)}
        />
      ) : null}
    </section>
  );
}

/** A confirmation whose action calls the API; its refusal (e.g. the account's last key) is shown inside. */
function ConfirmDialog(props: {
  title: string;
  action: string;
  danger?: boolean;
  onClose: () => void;
  run: () => Promise<void>;
  children: ReactNode;
}) {
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    setProblem(null);
    try {
      await props.run();
    } catch (thrown) {
      setProblem(problemOf(thrown));
      setBusy(false);
    }
  }

  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <p>{props.children}</p>
      {problem ? <ErrorState problem={problem} /> : null}
      <div className="form-actions">
        <button type="button" className="button" onClick={props.onClose}>
          Cancel
        </button>
        <button
          type="button"
          className={props.danger ? "button button-danger" : "button button-primary"}
          onClick={() => void confirm()}
          disabled={busy}
        >
          {props.action}
        </button>
      </div>
    </Dialog>
  );
}
