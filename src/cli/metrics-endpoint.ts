import { Registry } from 'prom-client';
import { crawlMetrics, type MetricsSource } from '../metrics/crawl-metrics.js';
import { serveMetrics } from '../metrics/metrics-server.js';

export interface MetricsEndpoint {
  /** Starts counting a crawl's events (once the crawl is open). */
  attach(source: MetricsSource): void;
  close(): Promise<void>;
}

/** `crawl --metrics-port N`: /metrics on 127.0.0.1 only (no token: the loopback is the boundary). */
export async function metricsEndpoint(port: number): Promise<MetricsEndpoint> {
  const registry = new Registry();
  const server = await serveMetrics(registry, port, '127.0.0.1', '--metrics-port');
  let detach = () => {};
  return {
    attach(source) {
      detach = crawlMetrics(source, registry).detach;
      // Said once the crawl is open: a resume refused after the port was bound announced metrics of nothing.
      process.stderr.write(`focuscrawl: metrics at http://127.0.0.1:${port}/metrics\n`);
    },
    close: () => {
      detach();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
