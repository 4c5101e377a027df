import type { ReactNode } from "react";

/** What a page shows when there is nothing yet, and what to do about it. */
export function EmptyState(props: { title: string; children?: ReactNode }) {
  return (
    <section className="empty-state" aria-label={props.title}>
      <p className="empty-state-title">{props.title}</p>
      {props.children ? <div>{props.children}</div> : null}
    </section>
  );
}
