import type { OverviewQuery } from "../../../generated/graphql/web-operations";
import { money, percent, quantity, signTone, unitPrice } from "../format";
import { DataTable, type Column } from "../table";

/**
 * The overview's holdings, sortable by every column (WEB.md: Overview). Their return is the
 * performance report's over the range shown (price, income and currency together, after flows),
 * not the unrealised gain the Tax page and REST `unrealisedGain` give: the headers say so.
 */

type Holding = OverviewQuery["performance"]["holdings"][number];

const columns = (currency: string, annualised: boolean): Column<Holding>[] => [
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
    header: "Return",
    numeric: true,
    sortValue: (h) => Number(h.totalReturn.totalReturnValue),
    tone: (h) => signTone(h.totalReturn.totalReturnValue),
    cell: (h) => money(h.totalReturn.totalReturnValue, currency),
  },
  {
    header: annualised ? "Return a year" : "Return %",
    numeric: true,
    sortValue: (h) => h.totalReturn.totalReturnPercent ?? -Infinity,
    tone: (h) => signTone(h.totalReturn.totalReturnPercent),
    cell: (h) => percent(h.totalReturn.totalReturnPercent),
  },
];

export function HoldingsTable({
  holdings,
  currency,
  period,
  annualised,
}: {
  holdings: Holding[];
  currency: string;
  /** The range the returns are over, as shown ("1 Jul 2025 to 28 Nov 2026"). */
  period: string;
  /** Whether the return percentages are a year's (the report's isAnnualized). */
  annualised: boolean;
}) {
  return (
    <DataTable
      id="holdings-table"
      caption={`Holdings, sortable by each column; return from ${period}, income included`}
      columns={columns(currency, annualised)}
      rows={holdings}
      rowKey={(h) => h.id}
      sort={{ header: "Value", ascending: false }}
    />
  );
}
