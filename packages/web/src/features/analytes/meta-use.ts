// The rule lives in the domain (the measurand xlsx says the same, issue 27.8); the page imports it here.
export { describeMetaUse, metaUseOf, type EstimateUse, type MetaUse } from '@bvdb/domain';
