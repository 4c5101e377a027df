import { useId } from "react";
import { formatDateTime } from "../../components/format";
import { type FormErrors, fromLocalInput, type KeyForm, type LimitReset } from "./form";

/** The browser's IANA zone (`Europe/Berlin`), named in the expiry's hint. */
const ZONE_NAME = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The inputs of a key, shared by Create and Edit. Every input has a visible label, its hint and its error
 * tied to it with aria-describedby, and `aria-invalid` when the browser or the API found it wrong.
 */
export function KeyFields(props: {
  form: KeyForm;
  errors: FormErrors;
  onChange: (form: KeyForm) => void;
  mode: "create" | "edit";
}) {
  const { form, errors, onChange } = props;
  const id = useId();
  const utc = form.neverExpires ? null : fromLocalInput(form.expiresAt);
  const set = <K extends keyof KeyForm>(field: K, value: KeyForm[K]) => onChange({ ...form, [field]: value });
  const described = (field: keyof KeyForm, hint: boolean) =>
    [hint ? `${id}-${field}-hint` : "", errors[field] ? `${id}-${field}-error` : ""]
      .filter(Boolean)
      .join(" ") || undefined;
  const error = (field: keyof KeyForm) =>
    errors[field] ? (
      <p id={`${id}-${field}-error`} className="field-error">
        {errors[field]}
      </p>
    ) : null;

  return (
    <div className="form-grid">
      <label className="field">
        <span className="field-label">Name</span>
        <input
          name="name"
          value={form.name}
          maxLength={200}
          required
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={described("name", false)}
          onChange={(event) => set("name", event.target.value)}
        />
        {error("name")}
      </label>
      <label className="field">
        <span className="field-label">Credit limit (USD)</span>
        <input
          name="limit"
          inputMode="decimal"
          value={form.limit}
          aria-invalid={errors.limit ? true : undefined}
          aria-describedby={described("limit", true)}
          onChange={(event) => set("limit", event.target.value)}
        />
        <span id={`${id}-limit-hint`} className="field-hint">
          Empty: no limit.
        </span>
        {error("limit")}
      </label>
      <label className="field">
        <span className="field-label">Limit reset</span>
        <select
          name="limit_reset"
          value={form.limitReset}
          aria-invalid={errors.limitReset ? true : undefined}
          aria-describedby={described("limitReset", true)}
          onChange={(event) => set("limitReset", event.target.value as LimitReset)}
        >
          <option value="never">Never (a lifetime cap)</option>
          <option value="daily">Daily</option>
          <option value="weekly">Weekly</option>
          <option value="monthly">Monthly</option>
        </select>
        <span id={`${id}-limitReset-hint`} className="field-hint">
          When the limit's spend starts again (UTC).
        </span>
        {error("limitReset")}
      </label>
      <fieldset className="field expiry">
        <legend className="field-label">Expiry</legend>
        <label className="checkbox">
          <input
            type="checkbox"
            name="never_expires"
            checked={form.neverExpires}
            // Choosing Never empties the date, so the form never holds a date it will not send.
            onChange={(event) =>
              onChange({
                ...form,
                neverExpires: event.target.checked,
                expiresAt: event.target.checked ? "" : form.expiresAt,
              })
            }
          />
          <span>Never expires</span>
        </label>
        <label className="field">
          <span className="field-label">Expires at</span>
          <input
            name="expires_at"
            type="datetime-local"
            value={form.expiresAt}
            aria-invalid={errors.expiresAt ? true : undefined}
            aria-describedby={described("expiresAt", true)}
            // Typing a date is choosing one: Never is unticked (an emptied input then asks for a date).
            onChange={(event) => onChange({ ...form, expiresAt: event.target.value, neverExpires: false })}
          />
          <span id={`${id}-expiresAt-hint`} className="field-hint">
            Your local time ({ZONE_NAME}), {utc ? `saved as ${formatDateTime(utc)}.` : "saved in UTC."}
            {props.mode === "edit" ? " A new expiry, or Never, applies at once, also to an expired key." : ""}
          </span>
          {error("expiresAt")}
        </label>
      </fieldset>
      <label className="field">
        <span className="field-label">Allowed providers</span>
        <textarea
          name="allowed_providers"
          rows={2}
          value={form.allowedProviders}
          aria-invalid={errors.allowedProviders ? true : undefined}
          aria-describedby={described("allowedProviders", true)}
          onChange={(event) => set("allowedProviders", event.target.value)}
        />
        <span id={`${id}-allowedProviders-hint`} className="field-hint">
          Provider ids, comma-separated (e.g. openai, anthropic). Empty: any provider.
        </span>
        {error("allowedProviders")}
      </label>
      <label className="field">
        <span className="field-label">Allowed models</span>
        <textarea
          name="allowed_models"
          rows={2}
          value={form.allowedModels}
          aria-invalid={errors.allowedModels ? true : undefined}
          aria-describedby={described("allowedModels", true)}
          onChange={(event) => set("allowedModels", event.target.value)}
        />
        <span id={`${id}-allowedModels-hint`} className="field-hint">
          Model ids, comma-separated (e.g. openai/gpt-4o-mini). Empty: any model.
        </span>
        {error("allowedModels")}
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          name="include_byok_in_limit"
          checked={form.includeByokInLimit}
          onChange={(event) => set("includeByokInLimit", event.target.checked)}
        />
        <span>Include BYOK usage in the limit</span>
      </label>
      {error("includeByokInLimit")}
      {props.mode === "edit" ? (
        <label className="checkbox">
          <input
            type="checkbox"
            name="disabled"
            checked={form.disabled}
            onChange={(event) => set("disabled", event.target.checked)}
          />
          <span>Disabled (requests with this key are refused)</span>
        </label>
      ) : null}
    </div>
  );
}
