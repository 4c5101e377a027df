import type { ReactNode } from "react";
import "./link-button.css";

/**
 * A button that reads like a link: for an action on the same page (open a row's details) where a real
 * link would be wrong (nothing to navigate to), keeping button semantics for keyboard and screen readers.
 * Added by C2 (issue 18) for the Generations and Models tables.
 */
export function LinkButton(props: { onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className="link-button" onClick={props.onClick}>
      {props.children}
    </button>
  );
}
