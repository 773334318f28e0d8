/** The letters of an A–Z index; names starting with anything else go under "#". */
export const INDEX_LETTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '#'] as const;

/** The index letter of a name: its first letter without accents, upper case, or "#". */
export function indexLetterOf(name: string): string {
  const first = name
    .trim()
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .charAt(0)
    .toUpperCase();
  return /^[A-Z]$/.test(first) ? first : '#';
}

/** Items grouped by index letter, in A–Z order ("#" last), each group in the given order. */
export function groupByLetter<T>(items: readonly T[], nameOf: (t: T) => string): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const letter = indexLetterOf(nameOf(item));
    groups.set(letter, [...(groups.get(letter) ?? []), item]);
  }
  return INDEX_LETTERS.filter((l) => groups.has(l)).map((l) => [l, groups.get(l)!]);
}

/** The id of a letter's section, for the index's links (#measurands-A). */
export const letterSectionId = (letter: string) => `measurands-${letter === '#' ? 'other' : letter}`;
