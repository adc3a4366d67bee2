import { dayNumber } from "../ledger";

/**
 * The money-weighted return (docs/rules.md §11.3, Excel's XIRR), pure: the rate r solving
 * `Σ Pᵢ / (1 + r)^((dᵢ − d₀) / 365) = 0`, d₀ the first payment's date. Solved by Brent's method
 * inside a bracket where the sum changes sign, so it always converges; when no bracket exists (no
 * sign change on (−1, 10⁶]) the answer is null, never a wrong number.
 */
export interface Payment {
  /** YYYY-MM-DD */
  date: string;
  /** Signed: − paid in (by the investor), + received. */
  amount: number;
}

const MAX_RATE = 1e6;

/** The annual rate as a fraction (0.05 = 5 %), or null. */
export function xirr(payments: readonly Payment[]): number | null {
  const live = payments.filter((p) => p.amount !== 0);
  if (live.length < 2) return null;
  // Payments of one day are one term of the sum: ten years of a large ledger's 20,000 flows are
  // at most 3,653 terms to evaluate at each step.
  const byDay = new Map<number, number>();
  for (const p of live) {
    const d = dayNumber(p.date);
    byDay.set(d, (byDay.get(d) ?? 0) + p.amount);
  }
  const days = [...byDay.keys()];
  const a = [...byDay.values()];
  // Payments that net to nothing each day: every rate solves the sum, none is the answer.
  if (a.every((x) => x === 0)) return null;
  const d0 = Math.min(...days);
  const t = days.map((d) => (d - d0) / 365);
  const npv = (r: number) => {
    let s = 0;
    const base = Math.log1p(r);
    for (let i = 0; i < a.length; i++) s += a[i] * Math.exp(-t[i] * base);
    return s;
  };
  // Bracket: walk up from just above −100 % over a geometric grid of rates; the first sign change
  // is the root nearest −100 % (the usual one when several exist).
  const grid = [
    -0.999999,
    -0.99,
    -0.9,
    -0.75,
    -0.5,
    -0.25,
    -0.1,
    0,
    0.1,
    0.25,
    0.5,
    1,
    2,
    5,
    10,
    100,
    1_000,
    10_000,
    MAX_RATE,
  ];
  let lo = grid[0];
  let flo = npv(lo);
  for (let i = 1; i < grid.length; i++) {
    const hi = grid[i];
    const fhi = npv(hi);
    if (flo === 0) return lo;
    if (Math.sign(flo) !== Math.sign(fhi)) return brent(npv, lo, hi, flo, fhi);
    lo = hi;
    flo = fhi;
  }
  return flo === 0 ? lo : null;
}

/** Brent's root finder on [a, b] with f(a), f(b) of opposite signs, to 1e-15 relative. */
function brent(f: (x: number) => number, a: number, b: number, fa: number, fb: number): number {
  if (Math.abs(fa) < Math.abs(fb)) [a, b, fa, fb] = [b, a, fb, fa];
  let c = a;
  let fc = fa;
  let d = b - a;
  let bisected = true;
  for (let i = 0; i < 200; i++) {
    if (fb === 0 || Math.abs(b - a) <= 1e-15 * Math.max(1, Math.abs(b))) return b;
    let s: number;
    if (fa !== fc && fb !== fc)
      s =
        (a * fb * fc) / ((fa - fb) * (fa - fc)) +
        (b * fa * fc) / ((fb - fa) * (fb - fc)) +
        (c * fa * fb) / ((fc - fa) * (fc - fb));
    else s = b - (fb * (b - a)) / (fb - fa);
    const m = (3 * a + b) / 4;
    const outside = (s - m) * (s - b) > 0;
    if (
      outside ||
      (bisected && Math.abs(s - b) >= Math.abs(b - c) / 2) ||
      (!bisected && Math.abs(s - b) >= Math.abs(c - d) / 2)
    ) {
      s = (a + b) / 2;
      bisected = true;
    } else bisected = false;
    const fs = f(s);
    d = c;
    c = b;
    fc = fb;
    if (Math.sign(fa) !== Math.sign(fs)) {
      b = s;
      fb = fs;
    } else {
      a = s;
      fa = fs;
    }
    if (Math.abs(fa) < Math.abs(fb)) [a, b, fa, fb] = [b, a, fb, fa];
  }
  return b;
}
