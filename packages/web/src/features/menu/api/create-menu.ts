import {
  createMenu,
  MENU_MAX_FILE_BYTES,
  type FacetQuery,
  type MenuResponse,
  type MenuTestInput,
} from '@bvdb/contract';
import { apiCall, urlFor } from '../../../lib/api-client';
import { uploadFile } from '../../../lib/upload-file';

export type MenuLevel = MenuResponse['parameters']['level'];
export interface MenuChoices {
  level: MenuLevel;
  probability: number;
}

/** A population (issue 47.3): `facet` → its values, comma-separated; sent as `facet.*` query parameters. */
export type MenuPopulation = Record<string, string>;
const facetQuery = (population: MenuPopulation = {}) =>
  Object.fromEntries(Object.entries(population).map(([facet, values]) => [`facet.${facet}`, values]));

/**
 * The population a sheet was judged for as the `facet.*` fields of a kept menu's body (decision 101);
 * none for the global estimates.
 */
export const facetFieldsOf = (population: MenuResponse['population']): Partial<FacetQuery> =>
  Object.fromEntries(
    Object.entries(population?.selection ?? {}).map(([facet, values]) => [`facet.${facet}`, values]),
  );

/** The uploaded file judged on the server (public; nothing is stored, decision 059). */
export const uploadMenu = (file: File, choices: MenuChoices, population?: MenuPopulation) =>
  uploadFile(createMenu, file, {
    csrfToken: null,
    maxBytes: MENU_MAX_FILE_BYTES,
    tooLarge: `The file is too large (${MENU_MAX_FILE_BYTES / 1024 / 1024} MB at most)`,
    query: { ...choices, ...facetQuery(population) },
  });

/** The menu as the page holds it (with the candidates chosen) judged again. */
export const postMenu = (tests: MenuTestInput[], choices: MenuChoices, population?: MenuPopulation) =>
  apiCall(createMenu, { body: { tests, ...choices }, query: facetQuery(population) });

/** The sheet as a workbook: the same menu posted with `format=xlsx` (nothing is kept in between). */
export async function downloadMenuSheet(
  tests: MenuTestInput[],
  choices: MenuChoices,
  population?: MenuPopulation,
): Promise<void> {
  const res = await fetch(urlFor(createMenu, { query: { format: 'xlsx', ...facetQuery(population) } }), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify({ tests, ...choices }),
  });
  if (!res.ok) throw new Error(`The workbook could not be made (${res.status}).`);
  const name = /filename="?([^";]+)"?/.exec(res.headers.get('Content-Disposition') ?? '')?.[1];
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name ?? 'bvdb_test_menu.xlsx';
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
