type Row = Record<string, unknown>;
interface File {
  tables: Record<string, Row[]>;
}

/** The demo export with every measurand, reference and dataset copied (factor − 1) times, new ids. */
export function multiplyExport(text: string, factor: number): string {
  const file = JSON.parse(text) as File;
  const t = file.tables;
  const max = (rows: Row[]) => Math.max(0, ...rows.map((r) => r.id as number));
  const step = {
    a: max(t.analytes!),
    r: max(t.references!),
    d: max(t.bv_specifications!),
    m: max(t.meta_calculations!),
  };
  const base = {
    analytes: [...t.analytes!],
    references: [...t.references!],
    specs: [...t.bv_specifications!],
    diseases: [...t.bv_specification_disease_states!],
    metas: [...t.meta_calculations!],
    metaDatasets: [...t.meta_calculation_datasets!],
  };
  for (let k = 1; k < factor; k++) {
    const a = (id: unknown) => (id as number) + k * step.a;
    const r = (id: unknown) => (id as number) + k * step.r;
    const d = (id: unknown) => (id as number) + k * step.d;
    const m = (id: unknown) => (id as number) + k * step.m;
    t.analytes!.push(
      ...base.analytes.map((x) => ({
        ...x,
        id: a(x.id),
        display_name: `${x.display_name as string} (copy ${k})`,
      })),
    );
    t.references!.push(
      ...base.references.map((x) => ({
        ...x,
        id: r(x.id),
        doi: typeof x.doi === 'string' ? `${x.doi}/copy-${k}` : null,
      })),
    );
    t.bv_specifications!.push(
      ...base.specs.map((x) => ({
        ...x,
        id: d(x.id),
        analyte_id: a(x.analyte_id),
        reference_id: r(x.reference_id),
      })),
    );
    t.bv_specification_disease_states!.push(
      ...base.diseases.map((x) => ({ ...x, bv_specification_id: d(x.bv_specification_id) })),
    );
    t.meta_calculations!.push(
      ...base.metas.map((x) => ({
        ...x,
        id: m(x.id),
        analyte_id: a(x.analyte_id),
        reference_ids: (x.reference_ids as number[]).map(r),
      })),
    );
    t.meta_calculation_datasets!.push(
      ...base.metaDatasets.map((x) => ({
        ...x,
        meta_calculation_id: m(x.meta_calculation_id),
        bv_specification_id: d(x.bv_specification_id),
      })),
    );
  }
  return JSON.stringify(file);
}
