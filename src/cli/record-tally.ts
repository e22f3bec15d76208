/**
 * Counts the records an export writes as they pass on their way to the formatter: a corpus is
 * streamed and never held, so counting afterwards would mean reading it twice.
 */
export class RecordTally {
  n = 0;

  *sync<T>(items: Iterable<T>): Iterable<T> {
    for (const item of items) {
      this.n++;
      yield item;
    }
  }

  async *async<T>(items: AsyncIterable<T>): AsyncIterable<T> {
    for await (const item of items) {
      this.n++;
      yield item;
    }
  }

  /** "wrote 1 page to FILE", "wrote 60 log records to FILE": what export says when it wrote a file. */
  line(noun: string, file: string): string {
    return `wrote ${this.n} ${noun}${this.n === 1 ? '' : 's'} to ${file}\n`;
  }
}
