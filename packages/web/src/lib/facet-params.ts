import {
  FACETS,
  facetQueryString,
  normaliseFacetSelection,
  type Facet,
  type FacetSelection,
} from '@bvdb/domain';
import { paths } from './paths';

/**
 * The measurand page's population facets live in its URL (issue 47, decision 097):
 * `?facet.sex=males&facet.interval=weeks` — the API's own parameters — so the page's address is
 * the permalink of the population shown, and each choice is a step of the browser's history.
 */
export function facetSelectionOfParams(params: URLSearchParams): FacetSelection {
  const out: Partial<Record<Facet, string[]>> = {};
  for (const facet of FACETS) {
    const values = params
      .getAll(`facet.${facet}`)
      .flatMap((v) => v.split(','))
      .map((v) => v.trim().toLowerCase())
      .filter(Boolean);
    if (values.length > 0) out[facet] = values;
  }
  return normaliseFacetSelection(out);
}

/** The page's query with one facet's values replaced (none: the facet dropped); other parameters kept. */
export function withFacetValues(
  params: URLSearchParams,
  facet: Facet,
  values: readonly string[],
): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete(`facet.${facet}`);
  const kept = [...new Set(values)].sort();
  if (kept.length > 0) next.set(`facet.${facet}`, kept.join(','));
  return next;
}

/** The page's query without any facet (the global estimate alone). */
export function withoutFacets(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const facet of FACETS) next.delete(`facet.${facet}`);
  return next;
}

/**
 * The permalink of a population's estimate: the measurand page with the facets in canonical order,
 * and the pinned release (or moment) when the page shows one.
 */
export function populationPermalinkPath(
  analyteId: number,
  selection: FacetSelection,
  pin: { release?: string | null; asOf?: string | null } = {},
): string {
  const parts = [facetQueryString(selection)];
  if (pin.release) parts.push(`release=${encodeURIComponent(pin.release)}`);
  else if (pin.asOf) parts.push(`as_of=${encodeURIComponent(pin.asOf)}`);
  const query = parts.filter(Boolean).join('&');
  return `${paths.analyte(analyteId)}${query ? `?${query}` : ''}`;
}
