import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";

/**
 * The views' tables: a view states its columns, this draws them the one way every table reads,
 * with a caption for screen readers, headers with scope="col", the row's subject as its header
 * (scope="row") and figures right-aligned (class "num"). A table wider than its box scrolls inside
 * it: the box is then a named region that takes the focus (so the keyboard scrolls it too), with a
 * shadow at the edge that has more columns.
 */

export interface Column<T> {
  /** The header, and the column's name when the table sorts. */
  header: string;
  cell: (row: T) => ComponentChildren;
  /** A figure: right-aligned, and sorted largest first on its first click. */
  numeric?: boolean;
  /** The cell that names the row (th scope="row"): what a screen reader reads out beside each figure. */
  rowHeader?: boolean;
  /** Left out on a phone, where the table scrolls sideways already. */
  hideNarrow?: boolean;
  /** Kept on one line (a short word that must not break on a phone). */
  nowrap?: boolean;
  /** A figure's colour (a loss in red). */
  tone?: (row: T) => "neg" | "pos" | undefined;
  /** What the column sorts by, in a sortable table: comparing, not computing. */
  sortValue?: (row: T) => number | string;
}

/** The column a sortable table is sorted by, and which way. */
export interface Sort {
  header: string;
  ascending: boolean;
}

/** The holding a row is about, as the views name it ("VAS.ASX"). */
export const HOLDING: Column<{ symbol: string; exchange: string }> = {
  header: "Holding",
  rowHeader: true,
  cell: (x) => `${x.symbol}.${x.exchange}`,
};

function classes<T>(column: Column<T>, row?: T): string | undefined {
  const tone = row !== undefined && column.tone?.(row);
  return (
    [column.numeric && "num", column.hideNarrow && "hide-narrow", column.nowrap && "nowrap", tone]
      .filter(Boolean)
      .join(" ") || undefined
  );
}

function Row<T>({ columns, row, class: cls }: { columns: Column<T>[]; row: T; class?: string }) {
  return (
    <tr class={cls}>
      {columns.map((c) =>
        c.rowHeader ? (
          <th key={c.header} scope="row" class={classes(c, row)}>
            {c.cell(row)}
          </th>
        ) : (
          <td key={c.header} class={classes(c, row)}>
            {c.cell(row)}
          </td>
        ),
      )}
    </tr>
  );
}

/** Whether the element's content is wider than it (re-measured as either changes size). */
function useScrolls(element: { current: HTMLElement | null }): boolean {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const e = element.current;
    if (!e) return;
    const measure = () => setScrolls(e.scrollWidth > e.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(e);
    if (e.firstElementChild) observer.observe(e.firstElementChild);
    return () => observer.disconnect();
  });
  return scrolls;
}

export function DataTable<T>(props: {
  /** What the table holds, read out by screen readers (the section's heading shows it to the eye). */
  caption: string;
  columns: Column<T>[];
  rows: T[];
  /** The row's key for Preact; by position where the rows have no identity of their own. */
  rowKey?: (row: T, index: number) => string | number;
  /** A last row in bold below a rule (tfoot), drawn by the same columns. */
  total?: T;
  id?: string;
  /** As wide as its figures, not the card. */
  compact?: boolean;
  /** No header row, where the caption and the row headers say all (a two-figure summary). */
  headless?: boolean;
  /** Sortable by every column with a sortValue, starting with this one. */
  sort?: Sort;
  /** What stands in the table's place when there is no row. */
  empty?: ComponentChildren;
}) {
  const { columns, rows, rowKey = (_row: T, i: number) => i } = props;
  const [sort, setSort] = useState(props.sort);
  const wrap = useRef<HTMLDivElement>(null);
  const scrolls = useScrolls(wrap);
  const sorted = useMemo(() => {
    const by = sort && columns.find((c) => c.header === sort.header)?.sortValue;
    if (!sort || !by) return rows;
    const ascending = [...rows].sort((a, b) => {
      const x = by(a);
      const y = by(b);
      return x < y ? -1 : x > y ? 1 : 0;
    });
    return sort.ascending ? ascending : ascending.reverse();
  }, [rows, columns, sort]);
  if (rows.length === 0 && props.empty !== undefined) return <p>{props.empty}</p>;
  const direction = (c: Column<T>) =>
    sort?.header !== c.header ? undefined : sort.ascending ? ("ascending" as const) : ("descending" as const);
  return (
    <div
      ref={wrap}
      class="table-wrap"
      role={scrolls ? "region" : undefined}
      aria-label={scrolls ? `${props.caption} (scrolls sideways)` : undefined}
      tabIndex={scrolls ? 0 : undefined}
    >
      <table id={props.id} class={props.compact ? "compact" : undefined}>
        <caption class="sr-only">{props.caption}</caption>
        {!props.headless && (
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.header} scope="col" class={classes(c)} aria-sort={direction(c)}>
                  {sort && c.sortValue ? (
                    <button
                      type="button"
                      class="sort"
                      onClick={() =>
                        setSort((s) => ({
                          header: c.header,
                          ascending: s?.header === c.header ? !s.ascending : !c.numeric,
                        }))
                      }
                    >
                      {c.header}
                      <span aria-hidden="true">{direction(c) === "ascending" ? " ▲" : direction(c) ? " ▼" : ""}</span>
                    </button>
                  ) : (
                    c.header
                  )}
                </th>
              ))}
            </tr>
          </thead>
        )}
        <tbody>
          {sorted.map((row, i) => (
            <Row key={rowKey(row, i)} columns={columns} row={row} />
          ))}
        </tbody>
        {props.total !== undefined && (
          <tfoot>
            <Row columns={columns} row={props.total} class="total" />
          </tfoot>
        )}
      </table>
    </div>
  );
}
