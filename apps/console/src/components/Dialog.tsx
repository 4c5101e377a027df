import { type ReactNode, useEffect, useId, useRef } from "react";

/**
 * A modal built on the native `<dialog>`: `showModal()` makes the rest of the page inert (focus stays in
 * the dialog), Escape closes it (the `cancel` event), and focus returns to what opened it on close.
 * Rendered only while open: its content mounts fresh each time.
 */
export function Dialog(props: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // The latest onClose, read at Escape time: the effect below runs once per opening, not per render.
  const onClose = useRef(props.onClose);
  onClose.current = props.onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const onCancel = (event: Event) => {
      event.preventDefault();
      onClose.current();
    };
    dialog.addEventListener("cancel", onCancel);
    return () => {
      dialog.removeEventListener("cancel", onCancel);
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    <dialog ref={ref} aria-labelledby={titleId} className={props.wide ? "dialog dialog-wide" : "dialog"}>
      <div className="dialog-header">
        <h2 id={titleId}>{props.title}</h2>
        <button
          type="button"
          className="button button-ghost"
          onClick={() => onClose.current()}
          aria-label="Close"
        >
          ×
        </button>
      </div>
      <div className="dialog-body">{props.children}</div>
    </dialog>
  );
}
