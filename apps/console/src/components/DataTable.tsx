import type { ReactNode } from "react";

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** Numbers are right-aligned so their digits line up. */
  numeric?: boolean;
}

/**
 * A real `<table>` (rows are `role="row"` for tests and screen readers), in a scrollable, focusable region
 * so a wide table stays usable on a 360 px screen with the keyboard.
 */
export function DataTable<Row>(props: {
  label: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  caption?: ReactNode;
  /** Below 720 px each row becomes a card with the header beside each cell (instead of side-scrolling). */
  stacked?: boolean;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
    <section className="table-scroll" aria-label={props.label} tabIndex={0}>
      <table aria-label={props.label} className={props.stacked ? "table-stacked" : undefined}>
        {props.caption ? <caption>{props.caption}</caption> : null}
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th key={column.header} scope="col" className={column.numeric ? "numeric" : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)}>
              {props.columns.map((column) => (
                <td
                  key={column.header}
                  className={column.numeric ? "numeric" : undefined}
                  data-label={column.header}
                >
                  {props.stacked ? <div>{column.cell(row)}</div> : column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
