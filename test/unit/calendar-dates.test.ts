import { addDays, dateInput, daysInMonth, fromDate, isCalendarDate, toDate } from "../../src/lib/dates";

/**
 * isCalendarDate counts days instead of parsing; the oracle is the JavaScript calendar: text names
 * a day when a Date made from it writes the same text back.
 */
const byDate = (text: string) => {
  const d = new Date(text + "T00:00:00.000Z");
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
};
const two = (n: number) => String(n).padStart(2, "0");

describe("calendar dates", () => {
  // 1900 and 2100 are not leap years (divisible by 100), 2000 is (by 400), 2024 is, 2023 is not.
  it.each([1900, 1999, 2000, 2023, 2024, 2100, 2200])(
    "agrees with the calendar on every month and day of %i",
    (year) => {
      for (let month = 0; month <= 13; month++)
        for (let day = 0; day <= 32; day++) {
          const text = `${year}-${two(month)}-${two(day)}`;
          expect([text, isCalendarDate(text)]).toEqual([text, byDate(text)]);
        }
    },
  );

  it("knows February", () => {
    expect(isCalendarDate("2024-02-29")).toBe(true);
    expect(isCalendarDate("2023-02-29")).toBe(false);
    expect(isCalendarDate("1900-02-29")).toBe(false);
    expect(isCalendarDate("2000-02-29")).toBe(true);
  });

  it("dateInput refuses what is no day, and what is out of range, with its own message", () => {
    const issue = (text: string) => dateInput.safeParse(text).error?.issues[0].message;
    expect(issue("2024-04-31")).toBe("is not a calendar date");
    expect(issue("2024-13-01")).toBe("is not a calendar date");
    expect(issue("2024-4-1")).toBe("must be a date, YYYY-MM-DD");
    expect(issue("1899-12-31")).toBe("must be between 1900-01-01 and 2200-12-31");
    expect(dateInput.parse("2024-02-29")).toBe("2024-02-29");
  });

  // toDate reads the usual shape by hand and fromDate writes it by hand: both must agree with the
  // Date parser and toISOString on every text and every date, odd ones included.
  it("toDate and fromDate agree with the Date parser and toISOString", () => {
    const parsed = (text: string) => new Date(text + "T00:00:00.000Z").getTime();
    const texts = [
      ...[999, 1000, 1900, 2000, 2023, 2024, 2100, 9999].flatMap((year) =>
        [0, 1, 2, 12, 13].flatMap((month) =>
          [0, 1, 28, 29, 30, 31, 32].map((day) => `${year}-${two(month)}-${two(day)}`),
        ),
      ),
      ...["2024-1-05", "2024-01-5 ", " 024-01-05", "2024-0a-05", "2024/01/05", "20240105", "", "+2024-01-0"],
      ...["0099-01-01", "2024-01-05T10:00", "2024- 1-05", "2024-01--5", "2024-+1-05"],
    ];
    for (const text of texts) expect([text, toDate(text).getTime()]).toEqual([text, parsed(text)]);
    for (const ms of [-1e15, -62198755200000, -30610224000000, 0, 951782400000, 253402214400000, 8.64e15])
      expect(fromDate(new Date(ms))).toBe(new Date(ms).toISOString().slice(0, 10));
    expect(() => fromDate(new Date(NaN))).toThrow(RangeError);
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2023-12-31", 1)).toBe("2024-01-01");
    expect(addDays("2024-03-01", -1)).toBe("2024-02-29");
  });

  it("daysInMonth knows every month, leap Februaries included, and what lies outside them", () => {
    for (const year of [1900, 2000, 2023, 2024])
      for (let month = 1; month <= 12; month++)
        expect(daysInMonth(year, month)).toBe(new Date(Date.UTC(year, month, 0)).getUTCDate());
    // Out of range, as the calendar counts: month 0 is the December before, 13 the January after.
    expect([daysInMonth(2024, 0), daysInMonth(2024, 13), daysInMonth(2024.5, 2)]).toEqual([31, 31, 29]);
  });
});
