import { useState } from 'react';
import { Empty, ErrorText, Loading } from '../../components/state-views';
import { useMetaByAnalyte } from '../../features/meta-results/api/get-metas-of-analyte';
import { RequireSignIn } from '../../components/require-sign-in';
import { MeasurandSelect } from '../../features/analytes/components/measurand-select';
import { CheckedResult } from '../../features/meta-tools/components/checked-result';

/** "Meta-calculation checker" (spec section 2): each stored result recalculated from its datasets. */
export function CheckerPage() {
  const [analyteId, setAnalyteId] = useState<number | null>(null);
  return (
    <RequireSignIn>
      <h1 className="h3">Meta-calculation checker</h1>
      <p>
        Each stored result of the measurand is recalculated from its stored datasets through the statistics
        service and compared with the stored value.
      </p>
      <MeasurandSelect id="checker-measurand" value={analyteId} onChange={setAnalyteId} />
      {analyteId !== null ? <CheckedResults analyteId={analyteId} /> : null}
    </RequireSignIn>
  );
}

function CheckedResults({ analyteId }: { analyteId: number }) {
  const q = useMetaByAnalyte(analyteId);
  if (q.isPending) return <Loading />;
  if (q.error) return <ErrorText>Error: {q.error.message || 'Unknown error'}</ErrorText>;
  const entry = q.data;
  if (entry.metas.length === 0) return <Empty>No Meta-Analysis Results</Empty>;
  return (
    <>
      {entry.metas.map((m) => (
        <CheckedResult key={m.id} meta={m} analyte={entry.analyte.display_name} />
      ))}
    </>
  );
}
