import type { ScriptArg, ScriptCall } from './redis-scripts.js';

interface Pending {
  shard: number;
  args: ScriptArg[];
  waiters: { from: number; count: number; resolve: (reply: unknown[]) => void; reject: (err: unknown) => void }[];
  replies: number;
}

/**
 * The calls of one Redis script made in one turn of the event loop, sent as one call per shard
 * (and per header: calls whose fixed arguments differ are not merged). The script takes its fixed
 * arguments, then a group of arguments per item, and replies with one value per item, in order;
 * each caller gets the values of its own items.
 *
 * Why: a worker's pages end together (a group commit settles many at once) and their responses
 * arrive together, and one script call per page cost a socket write and read here and a command
 * in Redis each (bench/distributed). Items of one call run in the order they were pushed, as
 * separate calls sent in that order would.
 */
export class ScriptBatcher {
  readonly #call: ScriptCall;
  readonly #keyOf: (shard: number) => string;
  readonly #sent: () => void;
  readonly #pending = new Map<string, Pending>();
  #timer: NodeJS.Immediate | null = null;

  /** `sent` is told once per batch of calls (they leave together: one round trip). */
  constructor(call: ScriptCall, keyOf: (shard: number) => string, sent: () => void) {
    this.#call = call;
    this.#keyOf = keyOf;
    this.#sent = sent;
  }

  /** Queues `count` items (their arguments in `groups`) for `shard`; resolves with their replies. */
  push(shard: number, header: ScriptArg[], groups: ScriptArg[], count: number): Promise<unknown[]> {
    const id = `${shard} ${header.join(' ')}`;
    let p = this.#pending.get(id);
    if (!p) this.#pending.set(id, (p = { shard, args: [...header], waiters: [], replies: 0 }));
    const batch = p;
    for (const a of groups) batch.args.push(a);
    const from = batch.replies;
    batch.replies += count;
    this.#timer ??= setImmediate(() => this.#send());
    return new Promise((resolve, reject) => batch.waiters.push({ from, count, resolve, reject }));
  }

  #send(): void {
    this.#timer = null;
    const batches = [...this.#pending.values()];
    this.#pending.clear();
    if (!batches.length) return;
    this.#sent();
    for (const b of batches) {
      this.#call(this.#keyOf(b.shard), ...b.args).then(
        (reply) => {
          const all = reply as unknown[];
          for (const w of b.waiters) w.resolve(all.slice(w.from, w.from + w.count));
        },
        (err: unknown) => b.waiters.forEach((w) => w.reject(err)),
      );
    }
  }
}
