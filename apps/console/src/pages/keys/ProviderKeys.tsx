import type { components } from "@gw/client";
import { type FormEvent, useId, useState } from "react";
import { unwrap, useApi } from "../../api/client";
import { type ApiProblem, problemOf } from "../../api/errors";
import { useQuery } from "../../api/use-query";
import { type Column, DataTable } from "../../components/DataTable";
import { Dialog } from "../../components/Dialog";
import { ErrorState } from "../../components/ErrorState";
import { formatDateTime } from "../../components/format";
import { Loading } from "../../components/Loading";

// The null-only fields are left out: the typed client drops them from answers, and they are not shown.
type ProviderKey = Omit<
  components["schemas"]["ByokCredential"],
  "allowed_api_key_hashes" | "allowed_models" | "allowed_user_ids" | "declared_zdr"
>;

/**
 * The account's own provider keys (BYOK, `/api/v1/byok`): requests to that provider are sent with the
 * account's key and charged only the gateway's fee. A key is sealed when stored and never shown again;
 * the list shows it masked.
 */
export function ProviderKeys() {
  const api = useApi();
  const list = useQuery(() => unwrap(api.GET("/api/v1/byok")), [api]);
  const [notice, setNotice] = useState("");
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ProviderKey | null>(null);

  async function toggle(key: ProviderKey) {
    setBusyId(key.id);
    setProblem(null);
    try {
      await unwrap(
        api.PATCH("/api/v1/byok/{id}", {
          params: { path: { id: key.id } },
          body: { disabled: !key.disabled },
        }),
      );
      setNotice(`Provider key “${key.name}” ${key.disabled ? "enabled" : "disabled"}.`);
      list.reload();
    } catch (thrown) {
      setProblem(problemOf(thrown));
    } finally {
      setBusyId(null);
    }
  }

  const columns: Column<ProviderKey>[] = [
    { header: "Provider", cell: (k) => k.provider },
    { header: "Name", cell: (k) => k.name },
    { header: "Key", cell: (k) => <code>{k.label}</code> },
    { header: "Status", cell: (k) => (k.disabled ? "Disabled" : "Active") },
    { header: "Added", cell: (k) => formatDateTime(k.created_at) },
    {
      header: "Actions",
      cell: (k) => (
        <div className="row-actions">
          <button
            type="button"
            className="button button-small"
            disabled={busyId === k.id}
            onClick={() => void toggle(k)}
          >
            {k.disabled ? "Enable" : "Disable"}
            <span className="visually-hidden"> {k.name}</span>
          </button>
          <button type="button" className="button button-small" onClick={() => setDeleting(k)}>
            Delete<span className="visually-hidden"> {k.name}</span>
          </button>
        </div>
      ),
    },
  ];

  const keys = list.state.data?.data ?? [];
  return (
    <section aria-labelledby="provider-keys-title" className="provider-keys">
      <h2 id="provider-keys-title">Provider keys (BYOK)</h2>
      <p className="muted">
        Your own keys for a provider: requests the gateway sends to that provider use your key, and only the
        gateway's fee is charged to your credits. A key is encrypted when stored and never shown again.
      </p>
      <p className="muted" role="status">
        {notice}
      </p>
      {problem ? <ErrorState problem={problem} /> : null}
      {list.state.status === "error" ? (
        <ErrorState problem={list.state.problem} onRetry={list.reload} />
      ) : null}
      {list.state.status === "loading" && !list.state.data ? (
        <Loading label="Loading provider keys…" />
      ) : null}
      {list.state.data && keys.length === 0 ? <p>No provider key yet.</p> : null}
      {keys.length > 0 ? (
        <DataTable label="Provider keys" columns={columns} rows={keys} rowKey={(k) => k.id} />
      ) : null}
      <AddProviderKeyForm
        onAdded={(key) => {
          setNotice(`Provider key “${key.name}” added for ${key.provider}.`);
          list.reload();
        }}
      />
      {deleting ? (
        <DeleteProviderKeyDialog
          providerKey={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            setNotice(`Provider key “${deleting.name}” deleted.`);
            setDeleting(null);
            list.reload();
          }}
        />
      ) : null}
    </section>
  );
}

function AddProviderKeyForm(props: { onAdded: (key: ProviderKey) => void }) {
  const api = useApi();
  const id = useId();
  const [provider, setProvider] = useState("");
  const [name, setName] = useState("");
  const [secret, setSecret] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const answer = await unwrap(
        api.POST("/api/v1/byok", {
          body: {
            provider: provider.trim(),
            key: secret.trim(),
            ...(name.trim() ? { name: name.trim() } : {}),
          },
        }),
      );
      // The secret leaves the page once stored: it is never shown or kept.
      setSecret("");
      setName("");
      props.onAdded(answer.data);
    } catch (thrown) {
      setProblem(problemOf(thrown));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="form provider-key-form"
      onSubmit={(event) => void submit(event)}
      aria-label="Add a provider key"
    >
      <h3>Add a provider key</h3>
      <div className="form-grid">
        <div className="field">
          <label className="field-label" htmlFor={`${id}-provider`}>
            Provider
          </label>
          <input
            id={`${id}-provider`}
            value={provider}
            required
            placeholder="e.g. openai"
            spellCheck={false}
            onChange={(event) => setProvider(event.target.value)}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-name`}>
            Name (optional)
          </label>
          <input
            id={`${id}-name`}
            value={name}
            maxLength={200}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-key`}>
            Provider API key
          </label>
          <input
            id={`${id}-key`}
            type="password"
            autoComplete="off"
            spellCheck={false}
            required
            value={secret}
            onChange={(event) => setSecret(event.target.value)}
          />
        </div>
      </div>
      {problem ? <ErrorState problem={problem} /> : null}
      <div className="form-actions">
        <button type="submit" className="button" disabled={busy || !provider.trim() || !secret.trim()}>
          Add provider key
        </button>
      </div>
    </form>
  );
}

function DeleteProviderKeyDialog(props: {
  providerKey: ProviderKey;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const api = useApi();
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const { providerKey } = props;

  async function remove() {
    setBusy(true);
    setProblem(null);
    try {
      await unwrap(api.DELETE("/api/v1/byok/{id}", { params: { path: { id: providerKey.id } } }));
      props.onDeleted();
    } catch (thrown) {
      setProblem(problemOf(thrown));
      setBusy(false);
    }
  }

  return (
    <Dialog title="Delete provider key" onClose={props.onClose}>
      <p>
        Delete <strong>{providerKey.name}</strong> ({providerKey.provider}, <code>{providerKey.label}</code>)?
        Requests to {providerKey.provider} go back to the gateway's own key and are charged in full.
      </p>
      {problem ? <ErrorState problem={problem} /> : null}
      <div className="form-actions">
        <button type="button" className="button" onClick={props.onClose}>
          Cancel
        </button>
        <button type="button" className="button button-danger" onClick={() => void remove()} disabled={busy}>
          Delete provider key
        </button>
      </div>
    </Dialog>
  );
}
