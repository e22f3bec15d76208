import { Gauge, type Registry } from 'prom-client';

/**
 * A gauge read at scrape time that has no sample while its value means nothing: a crawl without a
 * topic has no relevant pages to count, and a 0 there would read as "none found". Prometheus
 * treats a metric without samples as absent, as exporters do for what they cannot measure.
 */
export function optionalGauge(o: { name: string; help: string; registers: Registry[]; read: () => number | null | Promise<number | null> }): void {
  let absent = false;
  const gauge = new Gauge({
    name: o.name,
    help: o.help,
    registers: o.registers,
    async collect() {
      const v = await o.read();
      absent = v === null;
      this.set(v ?? 0);
    },
  });
  const get = gauge.get.bind(gauge);
  gauge.get = async () => {
    const m = await get();
    return absent ? { ...m, values: [] } : m;
  };
}
