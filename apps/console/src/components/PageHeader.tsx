import { type ReactNode, useEffect, useRef } from "react";

/**
 * The page's one `<h1>` (equal to its nav name). It takes focus when the page opens, so keyboard and
 * screen-reader users land on the new page after following a link instead of staying in the nav.
 */
export function PageHeader(props: { title: string; description?: ReactNode; actions?: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <header className="page-header">
      <div>
        <h1 ref={heading} tabIndex={-1}>
          {props.title}
        </h1>
        {props.description ? <p className="page-description">{props.description}</p> : null}
      </div>
      {props.actions ? <div className="page-actions">{props.actions}</div> : null}
    </header>
  );
}
