import { AlternativeNamesEditor } from '../features/analytes/components/alternative-names-editor';
import { MeasurandCodesEditor } from '../features/analytes/components/measurand-codes-editor';
import { useMatrices } from '../features/lookups/api/get-matrices';

/**
 * The measurand page's curator parts: the names the menu matches by (decision 083) and the codes
 * laboratory systems use (decision 093), with the matrices a code may name — the page passes them
 * (features do not import each other). One module loaded on demand, only for a signed-in curator,
 * so none of it is in a visitor's first load (decision 088's budget).
 */
export function MeasurandCuratorParts({ measurandId }: { measurandId: number }) {
  const matrices = useMatrices();
  return (
    <>
      <AlternativeNamesEditor measurandId={measurandId} />
      <MeasurandCodesEditor
        measurandId={measurandId}
        matrices={(matrices.data?.matrices ?? []).map((m) => ({ id: m.id, name: m.matrix_expansion }))}
      />
    </>
  );
}
