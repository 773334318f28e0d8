import { v1MetasOfMeasurand } from '@bvdb/contract';
import { FACETS, facetSelectionKey, type FacetSelection } from '@bvdb/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * A population's estimates (issue 47, decision 097): the measurand's answer with `facet.*`, its
 * `facets` part recomputed on the matching datasets; with `asOf`, from the datasets the estimates
 * of that moment used. One key per canonical facet set and moment; never server-rendered.
 */
export const populationMetasQuery = (id: number, selection: FacetSelection, asOf: string | null) =>
  queryOptions({
    queryKey: queryKeys.populationMetas(id, facetSelectionKey(selection), asOf),
    queryFn: () =>
      apiCall(v1MetasOfMeasurand, {
        params: { id },
        query: {
          ...Object.fromEntries(
            FACETS.filter((f) => selection[f]?.length).map((f) => [`facet.${f}`, selection[f]!.join(',')]),
          ),
          as_of: asOf,
        },
      }),
    meta: { ssr: false },
  });

/** Nothing is asked until a facet is chosen. */
export const usePopulationMetas = (id: number, selection: FacetSelection, asOf: string | null) =>
  useQuery({ ...populationMetasQuery(id, selection, asOf), enabled: Object.keys(selection).length > 0 });
