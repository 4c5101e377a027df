import { useState } from "react";
import { unwrap, useApi } from "../../api/client";
import { type ApiProblem, describeProblem, problemOf } from "../../api/errors";
import { Dialog } from "../../components/Dialog";
import type { Key } from "./form";

/** Deleting cannot be undone: the dialog names the key and asks for "Delete key". */
export function DeleteKeyDialog(props: { keyToDelete: Key; onClose: () => void; onDeleted: () => void }) {
  const api = useApi();
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const { keyToDelete } = props;

  async function remove() {
    setBusy(true);
    setProblem(null);
    try {
      await unwrap(api.DELETE("/api/v1/keys/{hash}", { params: { path: { hash: keyToDelete.hash } } }));
      props.onDeleted();
    } catch (thrown) {
      setProblem(problemOf(thrown));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title="Delete key" onClose={props.onClose}>
      <p>
        Delete <strong>{keyToDelete.name}</strong> ({keyToDelete.label})? Requests with it are refused at
        once, and this cannot be undone.
      </p>
      {problem ? (
        <p className="error-state" role="alert">
          {describeProblem(problem)}
        </p>
      ) : null}
      <div className="form-actions">
        <button type="button" className="button" onClick={props.onClose}>
          Cancel
        </button>
        <button type="button" className="button button-danger" onClick={remove} disabled={busy}>
          Delete key
        </button>
      </div>
    </Dialog>
  );
}
