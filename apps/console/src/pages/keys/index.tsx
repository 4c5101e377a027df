import { useState } from "react";
import { unwrap, useApi } from "../../api/client";
import { type ApiProblem, problemOf } from "../../api/errors";
import { useQuery } from "../../api/use-query";
import { EmptyState } from "../../components/EmptyState";
import { ErrorState } from "../../components/ErrorState";
import { Loading } from "../../components/Loading";
import { PageHeader } from "../../components/PageHeader";
import { forgetPlaygroundKey, rememberPlaygroundKey } from "../../session/session";
import { DeleteKeyDialog } from "./DeleteKeyDialog";
import type { Key } from "./form";
import { CreateKeyDialog, EditKeyDialog } from "./KeyFormDialog";
import { KeysTable } from "./KeysTable";
import { ManagementKeys } from "./ManagementKeys";
import { ProviderKeys } from "./ProviderKeys";
import { SecretDialog } from "./SecretDialog";
import "./keys.css";

const PAGE_SIZE = 25;

type Open =
  | { dialog: "create" }
  | { dialog: "secret"; name: string; secret: string }
  | { dialog: "edit"; key: Key }
  | { dialog: "delete"; key: Key }
  | null;

export function KeysPage() {
  const api = useApi();
  // The page tokens that led to the current page: empty for the first page.
  const [tokens, setTokens] = useState<string[]>([]);
  const pageToken = tokens.at(-1);
  const keys = useQuery(
    () =>
      unwrap(
        api.GET("/api/v1/keys", {
          params: {
            query: {
              page_size: PAGE_SIZE,
              include_disabled: "true",
              ...(pageToken ? { page_token: pageToken } : {}),
            },
          },
        }),
      ),
    [api, pageToken],
  );
  const [open, setOpen] = useState<Open>(null);
  const [notice, setNotice] = useState("");
  const [actionProblem, setActionProblem] = useState<ApiProblem | null>(null);
  const [busyHash, setBusyHash] = useState<string | null>(null);

  async function toggle(key: Key) {
    setBusyHash(key.hash);
    setActionProblem(null);
    try {
      await unwrap(
        api.PATCH("/api/v1/keys/{hash}", {
          params: { path: { hash: key.hash } },
          body: { disabled: !key.disabled },
        }),
      );
      setNotice(`Key “${key.name}” ${key.disabled ? "enabled" : "disabled"}.`);
      keys.reload();
    } catch (thrown) {
      setActionProblem(problemOf(thrown));
    } finally {
      setBusyHash(null);
    }
  }

  const page = keys.state.data;
  return (
    <>
      <PageHeader
        title="Keys"
        description="API keys call the models; each has its own credit limit, allowed providers and models, and expiry."
        actions={
          <button
            type="button"
            className="button button-primary"
            onClick={() => setOpen({ dialog: "create" })}
          >
            Create key
          </button>
        }
      />
      <p className="muted" role="status">
        {notice}
      </p>
      {actionProblem ? <ErrorState problem={actionProblem} /> : null}
      {keys.state.status === "error" ? (
        <ErrorState problem={keys.state.problem} onRetry={keys.reload} />
      ) : null}
      {page === undefined ? (
        keys.state.status === "loading" ? (
          <Loading label="Loading keys…" />
        ) : null
      ) : page.data.length === 0 && tokens.length === 0 ? (
        <EmptyState title="No keys yet">Create a key to call the models through the gateway.</EmptyState>
      ) : (
        <>
          <KeysTable
            keys={page.data}
            busyHash={busyHash}
            onEdit={(key) => setOpen({ dialog: "edit", key })}
            onToggle={toggle}
            onDelete={(key) => setOpen({ dialog: "delete", key })}
          />
          <nav className="pager" aria-label="Pages of keys">
            <button
              type="button"
              className="button"
              disabled={tokens.length === 0}
              onClick={() => setTokens(tokens.slice(0, -1))}
            >
              Previous page
            </button>
            <button
              type="button"
              className="button"
              disabled={!page.next_page_token}
              onClick={() => page.next_page_token && setTokens([...tokens, page.next_page_token])}
            >
              Next page
            </button>
          </nav>
        </>
      )}

      <ProviderKeys />

      <ManagementKeys />

      {open?.dialog === "create" ? (
        <CreateKeyDialog
          onClose={() => setOpen(null)}
          onCreated={(key, secret) => {
            rememberPlaygroundKey(secret, key.hash);
            setNotice(`Key “${key.name}” created.`);
            setOpen({ dialog: "secret", name: key.name, secret });
            keys.reload();
          }}
        />
      ) : null}
      {open?.dialog === "secret" ? (
        <SecretDialog name={open.name} secret={open.secret} onDone={() => setOpen(null)} />
      ) : null}
      {open?.dialog === "edit" ? (
        <EditKeyDialog
          keyToEdit={open.key}
          onClose={() => setOpen(null)}
          onSaved={(key) => {
            setNotice(`Key “${key.name}” saved.`);
            setOpen(null);
            keys.reload();
          }}
        />
      ) : null}
      {open?.dialog === "delete" ? (
        <DeleteKeyDialog
          keyToDelete={open.key}
          onClose={() => setOpen(null)}
          onDeleted={() => {
            // The playground would otherwise keep opening on this key and its "invalid api key".
            forgetPlaygroundKey(open.key.hash);
            setNotice(`Key “${open.key.name}” deleted.`);
            setOpen(null);
            keys.reload();
          }}
        />
      ) : null}
    </>
  );
}
