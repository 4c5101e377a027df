import { useRef, useState } from "react";
import { Dialog } from "../../components/Dialog";

/**
 * The new key's secret, shown this once (the API stores only its hash). It is also kept in this tab's
 * session storage for the Playground, and forgotten at sign-out.
 */
export function SecretDialog(props: {
  name: string;
  secret: string;
  onDone: () => void;
  /** What the secret is for; by default the Playground note of a new API key. */
  note?: string;
}) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const secret = useRef<HTMLOutputElement>(null);
  const selectSecret = () => {
    if (secret.current) window.getSelection()?.selectAllChildren(secret.current);
  };
  return (
    <Dialog title="Your new key" onClose={props.onDone}>
      <p>
        Copy the secret of <strong>{props.name}</strong> now: it is shown only once.{" "}
        {props.note ?? "The Playground of this tab can use it until you sign out."}
      </p>
      <output ref={secret} className="secret" aria-label="New key secret">
        {props.secret}
      </output>
      <p className="muted" role="status">
        {copied === "yes"
          ? "Copied to the clipboard."
          : copied === "failed"
            ? "Copying is not available here: the secret is selected, copy it with your keyboard."
            : ""}
      </p>
      <div className="form-actions">
        <button
          type="button"
          className="button"
          onClick={() => {
            // The Clipboard API exists only in secure contexts (https, localhost): elsewhere the secret is
            // selected, for the user to copy.
            if (!navigator.clipboard) {
              selectSecret();
              setCopied("failed");
              return;
            }
            navigator.clipboard.writeText(props.secret).then(
              () => setCopied("yes"),
              () => {
                selectSecret();
                setCopied("failed");
              },
            );
          }}
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
