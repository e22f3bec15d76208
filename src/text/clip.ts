/**
 * A string of at most `max` characters (UTF-16 units): cut ones end in an ellipsis, and a cut
 * never splits a surrogate pair (a lone half prints as U+FFFD and is no valid JSON for some readers).
 */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max - 1;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${s.slice(0, end)}…`;
}
