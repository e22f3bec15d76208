import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { FocusCrawlError } from '../errors.js';
import type { Strategy } from '../strategies/strategy.js';

/**
 * How often a worker publishes what its strategy learned. What a copy hears late it cannot use:
 * four workers crawling a 100-page site on bench/realweb fetch it in about two seconds. Each
 * worker's message reaches every other, so the messages grow with the square of the workers:
 * at 50 ms, 100 workers make 200,000 deliveries a second at most.
 */
const FLUSH_MS = 50;

/** Messages of another format (a worker of another focuscrawl version) or strategy are not heard. */
const FORMAT = 1;

/** What a worker's exchange has done, for its summary. */
export interface ExchangeCounts {
  /** Records this worker's strategy gave (pages it scored), and messages published with them. */
  told: number;
  messages: number;
  /** Records heard from the other workers. */
  heard: number;
}

/**
 * Every worker of a shared crawl runs its own copy of the strategy; a learning strategy
 * (Strategy.evidence/hear: `adaptive`) would learn from the pages its worker fetched alone, and
 * on bench/realweb four such copies lost recall against one (docs/benchmarks.md). Each worker
 * publishes its copy's evidence on the crawl's Redis channel every FLUSH_MS and hands what the
 * others publish to its copy. Pub/sub keeps nothing in Redis: a worker hears what is said while it
 * is subscribed, and a message lost to a dropped connection costs some learning, never a page.
 */
export class EvidenceExchange {
  readonly #pub: Redis;
  readonly #sub: Redis;
  readonly #channel: string;
  readonly #strategy: Strategy & Required<Pick<Strategy, 'evidence' | 'hear'>>;
  // Not the worker's name: workers of one process (tests, the bench) share it.
  readonly #id = randomBytes(6).toString('hex');
  readonly #counts: ExchangeCounts = { told: 0, messages: 0, heard: 0 };
  #timer: NodeJS.Timeout | null = null;

  private constructor(pub: Redis, sub: Redis, channel: string, strategy: Strategy & Required<Pick<Strategy, 'evidence' | 'hear'>>) {
    this.#pub = pub;
    this.#sub = sub;
    this.#channel = channel;
    this.#strategy = strategy;
  }

  /** Subscribes (a second connection: a subscribed one takes no other commands) and starts the strategy's recording; null for a strategy that learns nothing to share. */
  static async start(redis: Redis, channel: string, strategy: Strategy): Promise<EvidenceExchange | null> {
    if (!strategy.evidence || !strategy.hear) return null;
    const sub = redis.duplicate();
    // Errors surface as lost messages; the crawl's own connection reports Redis trouble.
    sub.on('error', () => {});
    const x = new EvidenceExchange(redis, sub, channel, strategy as Strategy & Required<Pick<Strategy, 'evidence' | 'hear'>>);
    sub.on('messageBuffer', (_channel: Buffer, message: Buffer) => x.#hear(message));
    try {
      await sub.subscribe(channel);
    } catch (err) {
      sub.disconnect();
      throw new FocusCrawlError('STORE', `Redis: cannot subscribe to ${channel}, where the workers' strategies tell each other what they learned: ${(err as Error).message}`, { cause: err });
    }
    strategy.evidence();
    x.#timer = setInterval(() => void x.flush(), FLUSH_MS);
    x.#timer.unref();
    return x;
  }

  get counts(): ExchangeCounts {
    return { ...this.#counts };
  }

  // Called from the subscriber's event: a throw here would be uncaught, so nothing a message holds may throw.
  #hear(message: Buffer): void {
    try {
      const m = JSON.parse(message.toString('utf8')) as { w?: unknown; s?: unknown; v?: unknown; e?: unknown } | null;
      if (typeof m !== 'object' || m === null || m.w === this.#id || m.s !== this.#strategy.name || m.v !== FORMAT || !Array.isArray(m.e)) return;
      this.#counts.heard += m.e.length;
      this.#strategy.hear(m.e);
    } catch {
      /* a message that cannot be read teaches nothing */
    }
  }

  /** Publishes what the strategy learned since the last flush; the timer does not await it (a lost message costs learning only). */
  flush(): Promise<void> {
    const e = this.#strategy.evidence();
    if (!e.length) return Promise.resolve();
    this.#counts.told += e.length;
    this.#counts.messages++;
    return this.#pub.publish(this.#channel, JSON.stringify({ w: this.#id, s: this.#strategy.name, v: FORMAT, e })).then(
      () => {},
      () => {},
    );
  }

  /** Says what is left, then stops listening. */
  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.flush();
    this.#sub.disconnect();
  }
}
