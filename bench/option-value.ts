/** `--name value` from a bench script's arguments, or `fallback` when the option is absent. */
export function optionValue(argv: readonly string[], name: string, fallback: string): string {
  const i = argv.indexOf('--' + name);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
}
