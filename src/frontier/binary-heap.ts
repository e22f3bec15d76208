/** A binary min-heap under `less`; the smallest element is at the top. */
export class BinaryHeap<T> {
  readonly #items: T[] = [];
  readonly #less: (a: T, b: T) => boolean;

  constructor(less: (a: T, b: T) => boolean) {
    this.#less = less;
  }

  get size(): number {
    return this.#items.length;
  }

  peek(): T | undefined {
    return this.#items[0];
  }

  push(item: T): void {
    const a = this.#items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.#less(a[i]!, a[p]!)) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }

  pop(): T | undefined {
    const a = this.#items;
    if (a.length === 0) return undefined;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      this.#down(0);
    }
    return top;
  }

  /** Keeps the items `keep` accepts, in one pass and a rebuild (O(n)). */
  retain(keep: (item: T) => boolean): void {
    const a = this.#items;
    let n = 0;
    for (const item of a) if (keep(item)) a[n++] = item;
    a.length = n;
    for (let i = (n >> 1) - 1; i >= 0; i--) this.#down(i);
  }

  #down(start: number): void {
    const a = this.#items;
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < a.length && this.#less(a[l]!, a[m]!)) m = l;
      if (r < a.length && this.#less(a[r]!, a[m]!)) m = r;
      if (m === i) break;
      [a[i], a[m]] = [a[m]!, a[i]!];
      i = m;
    }
  }

  /** All items in heap order (not sorted). */
  values(): readonly T[] {
    return this.#items;
  }
}
