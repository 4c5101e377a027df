import { type ReactNode, useState } from "react";
import "./cursor-pager.css";

/**
 * The pages of a cursor-paged list seen so far (`GET /api/v1/generations`, `/api/v1/admin/accounts`):
 * page n is fetched with `cursor` n, undefined for the newest page.
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const page = cursors.length - 1;
  return {
    page,
    cursor: cursors[page],
    /** The list as fetched: a change here refetches. */
    cursors,
    newer: () => setCursors((list) => (list.length > 1 ? list.slice(0, -1) : list)),
    older: (next: string) => setCursors((list) => [...list, next]),
    /** Back to the newest page (after a filter changed or a row was added). */
    reset: () => setCursors([undefined]),
  };
}

/** Newer / Page n / Older under a cursor-paged table; Older only when the answer had a next cursor. */
export function CursorPager(props: {
  pages: ReturnType<typeof useCursorPages>;
  nextCursor: string | null | undefined;
  loading: boolean;
  children?: ReactNode;
}) {
  const { pages, nextCursor } = props;
  return (
    <div className="cursor-pager">
      <button type="button" className="button" disabled={pages.page === 0} onClick={pages.newer}>
        Newer
      </button>
      <span className="muted">Page {pages.page + 1}</span>
      <button
        type="button"
        className="button"
        disabled={!nextCursor || props.loading}
        onClick={() => {
          if (nextCursor) pages.older(nextCursor);
        }}
      >
        Older
      </button>
      {props.children}
    </div>
  );
}
