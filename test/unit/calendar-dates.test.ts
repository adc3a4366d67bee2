import { dateInput, isCalendarDate } from "../../src/lib/dates";

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
});
