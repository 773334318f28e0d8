import { DatasetSchema, LegacyDatasetPageItemSchema } from '@bvdb/contract';
import { contractFragment, fragmentMemo } from '../../lib/contract-json.js';
import { presentDataset, presentLegacyPageItem } from './datasets.presenter.js';
import type { DatasetRow } from './datasets.repository.js';

/**
 * A dataset's JSON in the public pages, made once per row object and checked against the contract
 * then (decision 065): an item of the paged legacy list, and a dataset as `/api/v1/datasets` pages
 * carry it. The kept public rows get theirs while they are filled in the background.
 */
export const legacyPageItemJson = fragmentMemo((row: DatasetRow) =>
  contractFragment(LegacyDatasetPageItemSchema, presentLegacyPageItem(row)),
);

export const datasetJson = fragmentMemo((row: DatasetRow) =>
  contractFragment(DatasetSchema, presentDataset(row)),
);

/** Both of a row's page fragments, made ahead (the background fill calls it for each row it reads). */
export function preparePageItems(row: DatasetRow): void {
  legacyPageItemJson(row);
  datasetJson(row);
}
