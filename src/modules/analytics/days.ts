/** Days since 1970-01-01 of a YYYY-MM-DD date (UTC): date arithmetic without time zones. */
export function dayNumber(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 86_400_000;
}
