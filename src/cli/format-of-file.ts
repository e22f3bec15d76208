/**
 * The output format an `--out` file's extension names, among a command's formats (`crawl.csv`
 * -> csv; `.ndjson` is jsonl), or null: without --format, export, services and group write what
 * the file's name says, as Scrapy's -o does, and their default for any other name.
 */
export function formatOfFile<F extends string>(file: string | undefined, formats: readonly F[]): F | null {
  let ext = /\.([a-z0-9]+)$/i.exec(file ?? '')?.[1]?.toLowerCase();
  if (ext === 'ndjson') ext = 'jsonl';
  return formats.find((f) => f === ext) ?? null;
}
