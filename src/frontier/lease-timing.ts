/**
 * How often a crawl of lease `leaseMs` takes expired leases back (Frontier.reap): often enough that
 * a dead worker's URLs wait little past their lease. A shared worker's reap is also its heartbeat.
 */
export const reapIntervalMs = (leaseMs: number): number => Math.min(5000, leaseMs / 2);

/**
 * How recent a shared worker's heartbeat must be for readers to count it as running: three
 * missed reaps, and a second for a loop turn that slept (the crawl loop sleeps up to a second).
 */
export const heartbeatWindowMs = (leaseMs: number): number => 3 * reapIntervalMs(leaseMs) + 1000;
