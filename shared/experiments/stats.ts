/** z for a two-sided 95 % confidence interval. */
export const Z_95 = 1.959963984540054;

/** erf by Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7): enough for p-values shown to 4 places. */
function erf(x: number): number {
  const sign = x < 0 ? -1 : 1;
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-a * a);
  return sign * y;
}

/** Standard normal cumulative distribution. */
export function normalCdf(z: number): number {
  return 0.5 * (1 + erf(z / Math.SQRT2));
}

export interface ProportionTest {
  /** Variant rate minus control rate. */
  difference: number;
  /** 95 % confidence interval of the difference (unpooled standard error). */
  ci_low: number;
  ci_high: number;
  z: number;
  /** Two-sided, from the pooled standard error (the null hypothesis: equal rates). */
  p_value: number;
}

/** Two-proportion z-test of a variant (x2 of n2) against the control (x1 of n1). */
export function twoProportionTest(x1: number, n1: number, x2: number, n2: number): ProportionTest {
  if (n1 === 0 || n2 === 0) return { difference: 0, ci_low: 0, ci_high: 0, z: 0, p_value: 1 };
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const difference = p2 - p1;
  const pooled = (x1 + x2) / (n1 + n2);
  const sePooled = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  const z = sePooled > 0 ? difference / sePooled : 0;
  const p = sePooled > 0 ? 2 * (1 - normalCdf(Math.abs(z))) : 1;
  const se = Math.sqrt((p1 * (1 - p1)) / n1 + (p2 * (1 - p2)) / n2);
  return { difference, ci_low: difference - Z_95 * se, ci_high: difference + Z_95 * se, z, p_value: Math.min(1, Math.max(0, p)) };
}

/** Benjamini-Hochberg adjusted p-values, in the input's order (step-up, monotone, capped at 1). */
export function benjaminiHochberg(pValues: number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p);
  const adjusted = new Array<number>(m);
  let running = 1;
  for (let rank = m; rank >= 1; rank--) {
    const { p, i } = order[rank - 1];
    running = Math.min(running, (p * m) / rank);
    adjusted[i] = Math.min(1, running);
  }
  return adjusted;
}
