/**
 * Per-fetch abort controllers that also abort when a caller's signal (the crawl's stop) does,
 * without AbortSignal.any: in Node 20 every any() leaves a WeakRef and a finalization record on
 * its source signal, and any() was 2-3% of the embedded crawler's main thread
 * (bench/distributed/cpu-per-page's profile). One listener per caller's signal aborts every
 * controller still linked to it, with the caller's reason, as any() would.
 */
export class AbortLinks {
  readonly #linked = new WeakMap<AbortSignal, Set<AbortController>>();

  /** Links `inner` to `outer`; the returned function unlinks it (call it when the fetch ends). */
  link(outer: AbortSignal, inner: AbortController): () => void {
    if (outer.aborted) {
      inner.abort(outer.reason);
      return () => {};
    }
    let linked = this.#linked.get(outer);
    if (!linked) {
      const set = new Set<AbortController>();
      linked = set;
      this.#linked.set(outer, set);
      outer.addEventListener(
        'abort',
        () => {
          for (const c of set) c.abort(outer.reason);
          set.clear();
        },
        { once: true },
      );
    }
    const set = linked;
    set.add(inner);
    return () => void set.delete(inner);
  }
}
