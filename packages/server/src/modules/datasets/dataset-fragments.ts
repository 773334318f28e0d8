import { BvEstimateSchema, DatasetSchema, LegacyDatasetPageItemSchema } from '@bvdb/contract';
import { z } from 'zod';
import { contractFragment, fragmentMemo } from '../../lib/contract-json.js';
import { fragmentChains } from '../../lib/fragment-chains.js';
import { PreparedAnswers, type PreparedAnswer } from '../../lib/prepared-answers.js';
import { untilNoRequests } from '../../lib/requests-in-flight.js';
import { presentBvEstimates, presentDataset, presentLegacyPageItem } from './datasets.presenter.js';
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

const BV_ESTIMATES = z.array(BvEstimateSchema);

/**
 * A row's estimates as a public record carries them, made once per kept row by the background fill
 * (decision 110): checking and writing them on each first ask of a record was ~25 µs of the loop, a
 * fifth of a first-time record at 100× the demo.
 */
const estimatesJson = fragmentMemo((row: DatasetRow) =>
  contractFragment(BV_ESTIMATES, presentBvEstimates(row)),
);
const DATASET_OPEN = Buffer.from('{"dataset":');
const ESTIMATES_OPEN = Buffer.from(',"bv_estimates":');
const CLOSE = Buffer.from('}');

/**
 * A public legacy record (`/api/bv_specifications/{id}`, `{dataset, bv_estimates}`): the row's v1
 * fragment (made once per kept row, by the background fill) and its estimates checked against the
 * contract and written as the serialiser writes them, in the contract's key order: the bytes the
 * route's serialiser writes for the whole answer (a test compares them), without presenting and
 * checking the dataset or its estimates again on a first ask (decisions 104 and 110, as the v1 record
 * since decision 089).
 */
export function legacyRecordJson(row: DatasetRow): Buffer {
  return Buffer.concat([DATASET_OPEN, datasetJson(row).json, ESTIMATES_OPEN, estimatesJson(row).json, CLOSE]);
}

const DATA_OPEN = Buffer.from('{"data":');

/**
 * A public v1 record (`/api/v1/datasets/{id}`, `{data}`): the row's page fragment (checked against
 * the contract once per kept row, decision 065) in `{"data":…}`, the bytes the serialiser writes
 * (decision 089).
 */
export function v1RecordJson(row: DatasetRow): Buffer {
  return Buffer.concat([DATA_OPEN, datasetJson(row).json, CLOSE]);
}

/** The longest a batch of records waits for a moment with no request being answered (decision 114). */
const QUIET_WAIT_MS = 1_000;

/**
 * Each kept row's public records made ahead by the fill, as gzip copies with their ETags (decision
 * 113), each batch after the page items' pieces asked for so far (first-time pages right after a
 * start are stitched from those pieces, and records made in between had them wait), and at a moment
 * no request is being answered, or a second later (decision 114): right after a start the records
 * of every kept row are ~3 s of the compression thread at 100× the demo, and fifty first pages asked
 * at once went first.
 */
const whenPiecesMadeAndQuiet = async () => {
  await fragmentChains.idle();
  await untilNoRequests(QUIET_WAIT_MS);
};
const preparedRecords = {
  legacy: new PreparedAnswers<DatasetRow>(whenPiecesMadeAndQuiet),
  v1: new PreparedAnswers<DatasetRow>(whenPiecesMadeAndQuiet),
};

/**
 * A public record's answer: made ahead by the background fill when the row is a kept one the fill
 * reached (its gzip copy and ETag, decision 113), else its bytes, made now.
 */
export function publicRecordAnswer(row: DatasetRow, kind: 'legacy' | 'v1'): Buffer | PreparedAnswer {
  return preparedRecords[kind].get(row) ?? (kind === 'legacy' ? legacyRecordJson(row) : v1RecordJson(row));
}

/** Resolves when every record the fill asked for so far is made ahead (tests, benches). */
export async function preparedRecordsIdle(): Promise<void> {
  await Promise.all([preparedRecords.legacy.idle(), preparedRecords.v1.idle()]);
}

/**
 * What the background fill does after each step: both page fragments and the record's estimates of
 * each row it read, made ahead (decisions 065 and 110), and its two public records asked of the
 * compression thread (decision 113); then each kept row's fragments chained to the one before it in
 * id order, so a first-time page is stitched from pieces instead of compressed whole (decision 107).
 */
export function prepareKeptRows(read: DatasetRow[], stretch: (DatasetRow | undefined)[]): void {
  for (const row of read) {
    legacyPageItemJson(row);
    datasetJson(row);
    estimatesJson(row);
    preparedRecords.legacy.add(row, () => legacyRecordJson(row));
    preparedRecords.v1.add(row, () => v1RecordJson(row));
  }
  // One kind after the other: each item then goes to the compression thread once.
  for (const fragmentOf of [legacyPageItemJson, datasetJson]) {
    for (let k = 1; k < stretch.length; k++) {
      const [previous, row] = [stretch[k - 1], stretch[k]];
      if (previous && row) fragmentChains.add(fragmentOf(previous), fragmentOf(row));
    }
  }
}
