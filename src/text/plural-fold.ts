/**
 * Harman's S-stemmer (1991): English plurals folded to their singular with three rules and no
 * dictionary, so an anchor "Calling Tasks" meets a topic's "task" and "Policies" meets "policy"
 * when the topic does not Porter-stem. Words of other scripts and short words are left alone.
 *   -ies (not -eies, -aies) -> -y;  -es (not -aes, -ees, -oes) -> -e;  -s (not -us, -ss) -> ''
 */
export function foldPlural(word: string): string {
  if (word.length <= 3 || !/^[a-z0-9_]+$/.test(word) || !word.endsWith('s')) return word;
  if (word.endsWith('ies') && !word.endsWith('eies') && !word.endsWith('aies')) return word.slice(0, -3) + 'y';
  if (word.endsWith('es') && !word.endsWith('aes') && !word.endsWith('ees') && !word.endsWith('oes')) return word.slice(0, -1);
  if (word.endsWith('us') || word.endsWith('ss')) return word;
  return word.slice(0, -1);
}
