import { type FormEvent, useState } from "react";
import { unwrap, useApi } from "../../api/client";
import { type ApiProblem, describeProblem, problemOf } from "../../api/errors";
import { Dialog } from "../../components/Dialog";
import {
  createBody,
  EMPTY_FORM,
  type FormErrors,
  formFromKey,
  inputOfField,
  type Key,
  type KeyForm,
  updateBody,
  validate,
  validateEdit,
} from "./form";
import { KeyFields } from "./KeyFields";

/** "Create key": the form, then (on 201) the secret goes up to the page, which shows it once. */
export function CreateKeyDialog(props: {
  onClose: () => void;
  onCreated: (key: Key, secret: string) => void;
}) {
  const api = useApi();
  return (
    <KeyFormDialog
      title="Create key"
      submitLabel="Create"
      mode="create"
      initial={EMPTY_FORM}
      validate={(form) => validate(form)}
      onClose={props.onClose}
      submit={async (form) => {
        const created = await unwrap(api.POST("/api/v1/keys", { body: createBody(form) }));
        props.onCreated(created.data, created.key);
      }}
    />
  );
}

/** "Edit key": sends only what changed (PATCH), the expiry included. */
export function EditKeyDialog(props: { keyToEdit: Key; onClose: () => void; onSaved: (key: Key) => void }) {
  const api = useApi();
  const { keyToEdit } = props;
  return (
    <KeyFormDialog
      title={`Edit key ${keyToEdit.name}`}
      submitLabel="Save"
      mode="edit"
      initial={formFromKey(keyToEdit)}
      validate={(form) => validateEdit(keyToEdit, form)}
      onClose={props.onClose}
      submit={async (form) => {
        const body = updateBody(keyToEdit, form);
        if (Object.keys(body).length === 0) {
          props.onClose();
          return;
        }
        const updated = await unwrap(
          api.PATCH("/api/v1/keys/{hash}", { params: { path: { hash: keyToEdit.hash } }, body }),
        );
        props.onSaved(updated.data);
      }}
    />
  );
}

function KeyFormDialog(props: {
  title: string;
  submitLabel: string;
  mode: "create" | "edit";
  initial: KeyForm;
  validate: (form: KeyForm) => FormErrors;
  onClose: () => void;
  submit: (form: KeyForm) => Promise<void>;
}) {
  const [form, setForm] = useState(props.initial);
  const [errors, setErrors] = useState<FormErrors>({});
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = props.validate(form);
    setErrors(found);
    setProblem(null);
    if (Object.keys(found).length > 0) {
      focusFirstInvalid(event.currentTarget);
      return;
    }
    setBusy(true);
    try {
      await props.submit(form);
    } catch (thrown) {
      const next = problemOf(thrown);
      // A 400 naming a field is shown beside that field; anything else above the buttons.
      const input = next.status === 400 ? inputOfField(next.field) : undefined;
      if (input) setErrors({ [input]: next.message });
      else setProblem(next);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title={props.title} onClose={props.onClose} wide>
      <form className="form key-form" onSubmit={onSubmit} noValidate aria-busy={busy}>
        <KeyFields form={form} errors={errors} onChange={setForm} mode={props.mode} />
        {problem ? (
          <p className="error-state" role="alert">
            {describeProblem(problem)}
          </p>
        ) : null}
        <div className="form-actions">
          <button type="button" className="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            {props.submitLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function focusFirstInvalid(form: HTMLFormElement) {
  // After React renders the errors: the first input marked invalid takes focus.
  requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
