import type { analytes } from '../../../db/schema.js';

export type AnalyteRow = typeof analytes.$inferSelect;

/** Lower-case, accents removed: "Créatinine" and "creatinine" are the same search. */
export function normalise(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}

export const words = (s: string) => s.split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** One measurand as the index holds it: its id and display name, and its names normalised. */
export interface Entry {
  id: number;
  display_name: string;
  name: string;
  nameWords: string[];
  others: string[];
  otherWords: string[];
}

/** One measurand as the index compares it: its names normalised once. */
export function entryOf(a: AnalyteRow): Entry {
  const others = [a.fullName ?? '', ...a.alternateNames, a.loinc ?? '', a.npu ?? '', a.snomedCt ?? '']
    .map(normalise)
    .filter(Boolean);
  const name = normalise(a.displayName);
  return {
    id: a.id,
    display_name: a.displayName,
    name,
    nameWords: words(name),
    others,
    otherWords: others.flatMap(words),
  };
}
