import { lossLedger, type CgtGain, type LossLedgerYear, type TrustCapitalGain } from "../../src/modules/tax/cgt";
import { d, s } from "./parcels.helpers";
import { amounts, COMPANY, HALF } from "./tax.helpers";

/**
 * Story: the capital-loss ledger carries a loss across years by itself.
 *
 * Sources: ITAA 1997 s102-15 (a net capital loss is carried forward and applied in a later year),
 * s100-50 (carried losses come off after the current year's losses, non-discount gains first),
 * docs/rules.md §5 ("each year's unused net capital loss carries into the next year by itself … the
 * tax settings' carriedForwardLosses entries add losses the records cannot know to the year they
 * name"), docs/reports.md §5.1 (carriedForwardLossesAvailable = earlier years' unused losses + the
 * entry for this year), §5.4 (18V = netCapitalLossesCarriedForward). Individual: 50 %.
 */

type Year = { gains: CgtGain[]; trustGains: TrustCapitalGain[] };
const year = (...gains: [number | string, boolean][]): Year => ({
  gains: gains.map(([g, disc]) => ({ capitalGain: d(g), isDiscountable: disc })),
  trustGains: [],
});

// FY2023: a 1,000 capital loss. FY2024: no CGT events. FY2025: 300 non-discount + 1,000 discount gains.
const records = () =>
  new Map<number, Year>([
    [2023, year([-1000, false])],
    [2025, year([300, false], [1000, true])],
  ]);

const view = (rows: LossLedgerYear[]) =>
  rows.map((y) => ({
    fy: y.financialYear,
    broughtForward: s(y.broughtForward),
    entered: s(y.entered),
    available: s(y.summary.carriedForwardLossesAvailable),
    applied: s(y.summary.carriedForwardLossesApplied),
    net: s(y.summary.netCapitalGain),
    v18: s(y.summary.netCapitalLossesCarriedForward),
  }));

test("a FY2023 loss with no entry carries through FY2024 (no events) into FY2025 and is used there", () => {
  // FY2023: loss 1,000, no gains → 18V 1,000.
  // FY2024: brought forward 1,000, nothing to apply it to → 18V 1,000.
  // FY2025: carried 1,000: 300 off the non-discount gain, 700 off the discount gain (→ 300);
  //         discount 150; 18A 150; 18V 0.
  expect(view(lossLedger(records(), new Map(), HALF, 2025))).toEqual([
    { fy: 2023, broughtForward: "0", entered: "0", available: "0", applied: "0", net: "0", v18: "1000" },
    { fy: 2024, broughtForward: "1000", entered: "0", available: "1000", applied: "0", net: "0", v18: "1000" },
    { fy: 2025, broughtForward: "1000", entered: "0", available: "1000", applied: "1000", net: "150", v18: "0" },
  ]);
});

test("18V of each year on its myTax lines: 1,000.00, 1,000.00, 0.00 (and 18A 0, 0, 150)", () => {
  const rows = lossLedger(records(), new Map(), HALF, 2025);
  expect(rows.map((y) => amounts({}, y.summary)["18V"])).toEqual(["1000.00", "1000.00", "0.00"]);
  expect(rows.map((y) => amounts({}, y.summary)["18A"])).toEqual(["0.00", "0.00", "150.00"]);
  expect(rows.map((y) => amounts({}, y.summary)["18H"])).toEqual(["0.00", "0.00", "1300.00"]);
});

test("a tax-settings entry of 400 for FY2024 adds to FY2024 only, and what is left carries on", () => {
  // FY2024: brought forward 1,000 + entered 400 = 1,400 available, nothing to apply → 18V 1,400.
  // FY2025: 1,400 available: 300 non-discount, 1,000 discount → 1,300 applied; 100 left → 18V 100; 18A 0.
  expect(view(lossLedger(records(), new Map([[2024, d(400)]]), HALF, 2025))).toEqual([
    { fy: 2023, broughtForward: "0", entered: "0", available: "0", applied: "0", net: "0", v18: "1000" },
    { fy: 2024, broughtForward: "1000", entered: "400", available: "1400", applied: "0", net: "0", v18: "1400" },
    { fy: 2025, broughtForward: "1400", entered: "0", available: "1400", applied: "1300", net: "0", v18: "100" },
  ]);
});

test("an entry for a year before the first CGT event starts the ledger in that year", () => {
  // Entry FY2021: 250. FY2021 18V 250; FY2022 250; FY2023 250 + 1,000 loss = 1,250; FY2024 1,250;
  // FY2025: 1,250 available: 300 non-discount, 950 discount (→ 50); discount 25; 18A 25; 18V 0.
  expect(view(lossLedger(records(), new Map([[2021, d(250)]]), HALF, 2025))).toEqual([
    { fy: 2021, broughtForward: "0", entered: "250", available: "250", applied: "0", net: "0", v18: "250" },
    { fy: 2022, broughtForward: "250", entered: "0", available: "250", applied: "0", net: "0", v18: "250" },
    { fy: 2023, broughtForward: "250", entered: "0", available: "250", applied: "0", net: "0", v18: "1250" },
    { fy: 2024, broughtForward: "1250", entered: "0", available: "1250", applied: "0", net: "0", v18: "1250" },
    { fy: 2025, broughtForward: "1250", entered: "0", available: "1250", applied: "1250", net: "25", v18: "0" },
  ]);
});

test("a gain in the middle year uses part of the loss; the rest reaches FY2025", () => {
  // FY2024: a 200 non-discount gain: 200 of the 1,000 applied → 18A 0, 18V 800.
  // FY2025: 800: 300 non-discount, 500 discount (→ 500); discount 250; 18A 250; 18V 0.
  const years = records();
  years.set(2024, year([200, false]));
  expect(view(lossLedger(years, new Map(), HALF, 2025)).map((y) => [y.fy, y.applied, y.net, y.v18])).toEqual([
    [2023, "0", "0", "1000"],
    [2024, "200", "0", "800"],
    [2025, "800", "250", "0"],
  ]);
});

test("editing the FY2023 loss changes 18V of every later year", () => {
  // Loss 1,200 instead of 1,000: FY2024 18V 1,200; FY2025: 300 + 900 applied, 100 of the discount gain
  // left → discount 50, 18A 50.
  const years = records();
  years.set(2023, year([-1200, false]));
  expect(view(lossLedger(years, new Map(), HALF, 2025)).map((y) => [y.fy, y.net, y.v18])).toEqual([
    [2023, "0", "1200"],
    [2024, "0", "1200"],
    [2025, "50", "0"],
  ]);
});

test("a ledger stopped at FY2024 ignores later years' events and entries", () => {
  const rows = lossLedger(records(), new Map([[2026, d(999)]]), HALF, 2024);
  expect(view(rows).map((y) => [y.fy, y.v18])).toEqual([
    [2023, "1000"],
    [2024, "1000"],
  ]);
});

test("no events and no entries: one year of zeros", () => {
  expect(view(lossLedger(new Map(), new Map(), HALF, 2025))).toEqual([
    { fy: 2025, broughtForward: "0", entered: "0", available: "0", applied: "0", net: "0", v18: "0" },
  ]);
});

test("a company (no discount): the carried loss comes off the whole later gain", () => {
  // Company: FY2023 loss 1,000; FY2025 a 1,300 gain held > 12 months, no discount: 1,000 applied, 18A 300.
  const years = new Map<number, Year>([
    [2023, year([-1000, false])],
    [2025, year([1300, false])],
  ]);
  const rows = lossLedger(years, new Map(), COMPANY, 2025);
  expect(view(rows).map((y) => [y.fy, y.applied, y.net, y.v18])).toEqual([
    [2023, "0", "0", "1000"],
    [2024, "0", "0", "1000"],
    [2025, "1000", "300", "0"],
  ]);
});
