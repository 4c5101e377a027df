import { type FormEvent, useId, useRef, useState } from "react";
import { unwrap, useApi } from "../../api/client";
import { type ApiProblem, problemOf } from "../../api/errors";
import { Dialog } from "../../components/Dialog";
import { ErrorState } from "../../components/ErrorState";
import { formatUsd } from "../../components/format";
import { creditAmountProblem, newIdempotencyKey } from "./accounts-forms";

/** "Create account": a name; the answer carries the account's first management key, shown once. */
export function CreateAccountDialog(props: {
  onClose: () => void;
  onCreated: (created: { name: string; managementKey: string }) => void;
}) {
  const api = useApi();
  const id = useId();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const answer = await unwrap(api.POST("/api/v1/admin/accounts", { body: { name: name.trim() } }));
      props.onCreated({ name: answer.data.name, managementKey: answer.management_key });
    } catch (thrown) {
      setProblem(problemOf(thrown));
      setBusy(false);
    }
  }

  return (
    <Dialog title="Create account" onClose={props.onClose}>
      <form className="form" onSubmit={(event) => void submit(event)}>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-name`}>
            Name
          </label>
          <input
            id={`${id}-name`}
            value={name}
            maxLength={200}
            required
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        {problem ? <ErrorState problem={problem} /> : null}
        <div className="form-actions">
          <button type="button" className="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={busy || !name.trim()}>
            Create
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The new account's management key, shown once (it is stored only as a hash). */
export function NewAccountKeyDialog(props: { name: string; managementKey: string; onDone: () => void }) {
  const [copied, setCopied] = useState<string>("");
  return (
    <Dialog title="New account" onClose={props.onDone}>
      <p>
        Give this management key to the owner of <strong>{props.name}</strong>: it is shown only once. They
        sign in to the console with it and create their API keys.
      </p>
      <output className="secret" aria-label="New management key">
        {props.managementKey}
      </output>
      <p className="muted" role="status">
        {copied}
      </p>
      <div className="form-actions">
        <button
          type="button"
          className="button"
          onClick={() =>
            navigator.clipboard.writeText(props.managementKey).then(
              () => setCopied("Copied to the clipboard."),
              () => setCopied("Copying failed: select the key and copy it."),
            )
          }
        >
          Copy
        </button>
        <button type="button" className="button button-primary" onClick={props.onDone}>
          Done
        </button>
      </div>
    </Dialog>
  );
}

/**
 * "Add credits": a positive USD amount, purchase or grant, and a reason for the audit log. One
 * Idempotency-Key per opening, so "Add credits" again after a timeout cannot credit twice.
 */
export function AddCreditsDialog(props: {
  account: { id: string; name: string };
  onClose: () => void;
  onGranted: (message: string) => void;
}) {
  const api = useApi();
  const id = useId();
  const idempotencyKey = useRef(newIdempotencyKey());
  const [amount, setAmount] = useState("");
  const [kind, setKind] = useState<"purchase" | "grant">("purchase");
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [amountProblem, setAmountProblem] = useState<string | undefined>();
  const [problem, setProblem] = useState<ApiProblem | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = creditAmountProblem(amount);
    setAmountProblem(found);
    if (found) return;
    setBusy(true);
    setProblem(null);
    try {
      const answer = await unwrap(
        api.POST("/api/v1/admin/accounts/{id}/credits", {
          params: { path: { id: props.account.id }, header: { "idempotency-key": idempotencyKey.current } },
          body: { amount: amount.trim(), kind, reason: reason.trim() },
        }),
      );
      props.onGranted(
        `Added ${formatUsd(answer.data.amount)} to ${props.account.name}; balance ${formatUsd(answer.data.credits.balance)}.`,
      );
    } catch (thrown) {
      setProblem(problemOf(thrown));
      setBusy(false);
    }
  }

  return (
    <Dialog title="Add credits" onClose={props.onClose}>
      <p>
        To <strong>{props.account.name}</strong> <code>{props.account.id}</code>
      </p>
      <form className="form" onSubmit={(event) => void submit(event)}>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-amount`}>
            Amount (USD)
          </label>
          <input
            id={`${id}-amount`}
            inputMode="decimal"
            value={amount}
            aria-invalid={amountProblem !== undefined}
            aria-describedby={amountProblem ? `${id}-amount-error` : undefined}
            onChange={(event) => setAmount(event.target.value)}
          />
          {amountProblem ? (
            <p className="field-error" id={`${id}-amount-error`} role="alert">
              {amountProblem}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-kind`}>
            Kind
          </label>
          <select
            id={`${id}-kind`}
            value={kind}
            onChange={(event) => setKind(event.target.value === "grant" ? "grant" : "purchase")}
          >
            <option value="purchase">Purchase (paid; ends the free tier)</option>
            <option value="grant">Grant (a gift; keeps the free tier)</option>
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-reason`}>
            Reason
          </label>
          <input
            id={`${id}-reason`}
            value={reason}
            maxLength={500}
            required
            placeholder="Invoice or ticket number"
            onChange={(event) => setReason(event.target.value)}
          />
          <span className="field-hint">Written to the operator audit log.</span>
        </div>
        {problem ? <ErrorState problem={problem} /> : null}
        <div className="form-actions">
          <button type="button" className="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={busy || !reason.trim()}>
            Add credits
          </button>
        </div>
      </form>
    </Dialog>
  );
}
