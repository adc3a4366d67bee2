import type { OverviewQuery } from "../../../generated/graphql/web-operations";
import { money, percent, quantity, signTone, unitPrice } from "../format";
import { DataTable, type Column } from "../table";

/** The overview's holdings, sortable by every column (WEB.md: Overview). */

type Holding = OverviewQuery["performance"]["holdings"][number];

const columns = (currency: string): Column<Holding>[] => [
  {
    header: "Holding",
    rowHeader: true,
    sortValue: (h) => h.symbol,
    cell: (h) => (
      <>
        <span class="symbol">
          {h.symbol}.{h.exchange}
        </span>
        <span class="sub">{h.name}</span>
      </>
    ),
  },
  { header: "Units", numeric: true, sortValue: (h) => Number(h.quantity), cell: (h) => quantity(h.quantity) },
  {
    header: "Price",
    numeric: true,
    hideNarrow: true,
    sortValue: (h) => Number(h.currentPrice ?? -Infinity),
    cell: (h) => unitPrice(h.currentPrice, h.currencyCode),
  },
  {
    header: "Value",
    numeric: true,
    sortValue: (h) => Number(h.marketValue),
    cell: (h) => money(h.marketValue, currency),
  },
  { header: "Weight", numeric: true, sortValue: (h) => h.holdingWeight, cell: (h) => percent(h.holdingWeight) },
  {
    header: "Gain",
    numeric: true,
    sortValue: (h) => Number(h.totalReturn.totalReturnValue),
    tone: (h) => signTone(h.totalReturn.totalReturnValue),
    cell: (h) => money(h.totalReturn.totalReturnValue, currency),
  },
  {
    header: "Return",
    numeric: true,
    sortValue: (h) => h.totalReturn.totalReturnPercent ?? -Infinity,
    tone: (h) => signTone(h.totalReturn.totalReturnPercent),
    cell: (h) => percent(h.totalReturn.totalReturnPercent),
  },
];

export function HoldingsTable({ holdings, currency }: { holdings: Holding[]; currency: string }) {
  return (
    <DataTable
      id="holdings-table"
      caption="Holdings, sortable by each column"
      columns={columns(currency)}
      rows={holdings}
      rowKey={(h) => h.id}
      sort={{ header: "Value", ascending: false }}
    />
  );
}
