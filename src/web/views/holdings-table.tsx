import { useMemo, useState } from "preact/hooks";
import type { OverviewQuery } from "../../../generated/graphql/web-operations";
import { money, negative, percent, quantity, unitPrice } from "../format";

/** The overview's holdings, sortable by every column (WEB.md: Overview). */

type Holding = OverviewQuery["performance"]["holdings"][number];
type SortKey = "symbol" | "quantity" | "currentPrice" | "marketValue" | "holdingWeight" | "gain" | "return";

/** `narrow: false`: left out on a phone, where the table scrolls sideways already. */
const COLUMNS: { key: SortKey; label: string; numeric: boolean; narrow?: false }[] = [
  { key: "symbol", label: "Holding", numeric: false },
  { key: "quantity", label: "Units", numeric: true },
  { key: "currentPrice", label: "Price", numeric: true, narrow: false },
  { key: "marketValue", label: "Value", numeric: true },
  { key: "holdingWeight", label: "Weight", numeric: true },
  { key: "gain", label: "Gain", numeric: true },
  { key: "return", label: "Return", numeric: true },
];

/** The value a column sorts by: comparing, not computing. */
function sortValue(h: Holding, key: SortKey): number | string {
  switch (key) {
    case "symbol":
      return h.symbol;
    case "quantity":
      return Number(h.quantity);
    case "currentPrice":
      return Number(h.currentPrice ?? -Infinity);
    case "marketValue":
      return Number(h.marketValue);
    case "holdingWeight":
      return h.holdingWeight;
    case "gain":
      return Number(h.totalReturn.totalReturnValue);
    case "return":
      return h.totalReturn.totalReturnPercent ?? -Infinity;
  }
}

export function HoldingsTable({ holdings, currency }: { holdings: Holding[]; currency: string }) {
  const [sort, setSort] = useState<{ key: SortKey; ascending: boolean }>({ key: "marketValue", ascending: false });
  const rows = useMemo(() => {
    const sorted = [...holdings].sort((a, b) => {
      const x = sortValue(a, sort.key);
      const y = sortValue(b, sort.key);
      return x < y ? -1 : x > y ? 1 : 0;
    });
    return sort.ascending ? sorted : sorted.reverse();
  }, [holdings, sort]);
  return (
    <div class="table-wrap">
      <table id="holdings-table">
        <caption class="sr-only">Holdings, sortable by each column</caption>
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th
                key={c.key}
                scope="col"
                class={[c.numeric && "num", c.narrow === false && "hide-narrow"].filter(Boolean).join(" ") || undefined}
                aria-sort={sort.key === c.key ? (sort.ascending ? "ascending" : "descending") : undefined}
              >
                <button
                  type="button"
                  class="sort"
                  onClick={() =>
                    setSort((s) => ({ key: c.key, ascending: s.key === c.key ? !s.ascending : !c.numeric }))
                  }
                >
                  {c.label}
                  <span aria-hidden="true">{sort.key === c.key ? (sort.ascending ? " ▲" : " ▼") : ""}</span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((h) => (
            <tr key={h.id}>
              <th scope="row">
                <span class="symbol">
                  {h.symbol}.{h.exchange}
                </span>
                <span class="sub">{h.name}</span>
              </th>
              <td class="num">{quantity(h.quantity)}</td>
              <td class="num hide-narrow">{unitPrice(h.currentPrice, h.currencyCode)}</td>
              <td class="num">{money(h.marketValue, currency)}</td>
              <td class="num">{percent(h.holdingWeight)}</td>
              <td class={`num ${negative(h.totalReturn.totalReturnValue) ? "neg" : "pos"}`}>
                {money(h.totalReturn.totalReturnValue, currency)}
              </td>
              <td class={`num ${negative(h.totalReturn.totalReturnPercent) ? "neg" : "pos"}`}>
                {percent(h.totalReturn.totalReturnPercent)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
