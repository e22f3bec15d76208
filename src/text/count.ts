/** "1 page", "3 pages": a count with its noun agreeing (library code and the CLI's lines alike). */
export const count = (n: number, one: string, many = one + 's'): string => `${n} ${n === 1 ? one : many}`;
