// Small statistics helpers shared by the benchmark scripts: they print medians, never assert.

export function median(xs: number[]): number {
  return quantile(xs, 0.5);
}

export function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (s[lo] as number) + ((s[hi] as number) - (s[lo] as number)) * (pos - lo);
}

export function fmt(n: number, digits = 2): string {
  return n.toFixed(digits);
}

/** One summary line: name, median, p90, min, with units. */
export function report(name: string, samples: number[], unit: string, digits = 2): string {
  const line = `${name}: median ${fmt(median(samples), digits)} ${unit}  p90 ${fmt(quantile(samples, 0.9), digits)} ${unit}  min ${fmt(Math.min(...samples), digits)} ${unit}  (n=${samples.length})`;
  console.log(line);
  return line;
}
