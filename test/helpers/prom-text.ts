import parsePrometheusTextFormat, { type PromFamily, type PromSample } from 'parse-prometheus-text-format';

/** /metrics text parsed by a real text-format parser, with lookups that fail loudly. */
export function parseMetrics(text: string) {
  const families = parsePrometheusTextFormat(text);
  const family = (name: string): PromFamily => {
    const f = families.find((x) => x.name === name);
    if (!f) throw new Error(`no metric ${name} in:\n${text}`);
    return f;
  };
  const sample = (name: string, labels: Record<string, string> = {}): PromSample => {
    const s = family(name).metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
    if (!s) throw new Error(`no sample ${name}${JSON.stringify(labels)}`);
    return s;
  };
  return {
    families,
    family,
    value: (name: string, labels: Record<string, string> = {}) => Number(sample(name, labels).value),
    histogram: (name: string) => {
      const s = sample(name);
      return { count: Number(s.count), sum: Number(s.sum), buckets: Object.fromEntries(Object.entries(s.buckets ?? {}).map(([k, v]) => [k, Number(v)])) };
    },
  };
}
