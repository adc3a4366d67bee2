import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../lib/paths";

/** The OpenAPI document's front matter: what each tag groups and the licence it states. */

/**
 * What each tag groups, for readers of /docs. A tag an endpoint table adds without a line here
 * has no description, and test/api/openapi-lint.test.ts fails until it gets one.
 */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Sources: "Broker and data source identifiers: a trade's `sourceId`. The same ids on every installation.",
  Portfolios:
    "Portfolios with their base currency, tax residency, entity type and financial year end; their holdings and cash accounts. Another account's portfolio answers 404 (docs/conventions.md §2.3).",
  Holdings:
    "Holdings (a security or a custom investment in one portfolio), their trades, income, custom prices and ticker changes. A trade naming a symbol creates its holding (docs/rules.md §1).",
  Trades:
    "Trades of every type, bulk imports (JSON or CSV, all or nothing, duplicates refused unless skipped or allowed) and attachments. Each type's effect on parcels: docs/rules.md §2; imports: docs/conventions.md §7.4.",
  StocksIncome:
    "Dividends and distributions: franking credits, withholding and foreign tax, reinvestment (DRP) and AMIT components. Only confirmed income enters the tax reports (docs/rules.md §6).",
  ProRataDistributions:
    "A year's AMIT statement totals spread over the holding's distributions of that year by gross amount (docs/rules.md §6.6).",
  "Cash accounts":
    "Cash accounts, their transactions, and the trades and income they sync, with running balances (docs/rules.md §9).",
  Prices:
    "Custom prices, and the closing prices and exchange rates imported into the account (JSON or CSV, all or nothing). How a valuation picks a price and a rate: docs/rules.md §7 and §8.",
  Securities:
    "Search the security list and the securities this account's trades added: the exact symbol first, then symbol prefixes, then words of the name.",
  PortfolioTransactions: "One ledger of a portfolio's trades, income and cash transactions, newest first, paged.",
  Clients:
    "An adviser's clients, the portfolios assigned to them, and their login keys, which see only those portfolios with the client's permission (docs/conventions.md §2.4).",
  "API keys":
    "The account's API keys: list them (never the keys themselves), make one for a server or a script, revoke or rotate one. Only the account's own keys manage keys; the last account key cannot be revoked.",
  CustomGroups:
    "The account's own classifications of holdings: a label per holding, usable as an allocation model's dimension and a performance grouping.",
  TaxSettings:
    "Per portfolio: the entity type (the CGT discount), the parcel methods by year and holding, and capital losses carried into a year (docs/rules.md §3, §5).",
  AllocationModels:
    "Target allocation models (one active per portfolio), the rebalance that brings a portfolio back to one, and the drift of every portfolio with an active model: deterministic arithmetic, not advice (docs/reports.md §4).",
  Reports:
    "The Australian tax reports of a financial year: capital gains, unrealised gains, taxable income, the ATO myTax labels (JSON or PDF), and the simulated sell (docs/reports.md §5). For portfolios in AUD with Australian tax residency.",
  Planning:
    "What none of the anchors answers through an API: the end-of-year tax planner and the income forecast (docs/reports.md §6). They write nothing.",
  Analytics:
    "Performance by time-weighted, money-weighted (XIRR) and Modified Dietz returns, benchmarks, and portfolio and holding timeseries (docs/reports.md §1–3; the methods: docs/rules.md §11).",
  "Market data":
    "Prices, exchange rates, dividends and splits fetched from market-data providers on a schedule and on request, and the state of each security's last fetch (docs/data.md).",
};

/**
 * The licence the repository grants: package.json's `license` (an SPDX identifier). While it
 * names none, no licence is granted, which npm spells UNLICENSED; SPDX has no identifier for
 * that, so it is a LicenseRef (OpenAPI 3.1 wants an identifier or a URL).
 */
export function license(): { name: string; identifier: string } {
  const { license } = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as {
    license?: string;
  };
  return license && license !== "UNLICENSED"
    ? { name: license, identifier: license }
    : { name: "UNLICENSED: no licence granted yet", identifier: "LicenseRef-UNLICENSED" };
}
