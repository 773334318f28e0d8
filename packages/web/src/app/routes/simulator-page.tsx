import { useState } from 'react';
import { RequireSignIn } from '../../components/require-sign-in';
import { MeasurandSelect } from '../../features/analytes/components/measurand-select';
import { DatasetPicker } from '../../features/datasets/components/dataset-picker';
import { Simulation } from '../../features/meta-tools/components/simulation';

/** "Meta Calculation Simulator" (spec section 2): a meta-analysis on datasets the curator picks. */
export function SimulatorPage() {
  const [analyteId, setAnalyteId] = useState<number | null>(null);
  const [simulated, setSimulated] = useState<number[] | null>(null);
  return (
    <RequireSignIn>
      <h1 className="h3">Meta Calculation Simulator</h1>
      <p>
        Choose a measurand, tick datasets and simulate: each is validated with the rules of the meta-analysis,
        and the CVI and CVG are calculated separately by the statistics service.
      </p>
      <MeasurandSelect
        id="simulator-measurand"
        value={analyteId}
        onChange={(id) => {
          setAnalyteId(id);
          setSimulated(null);
        }}
      />
      {analyteId !== null ? <DatasetPicker analyteId={analyteId} onSimulate={setSimulated} /> : null}
      {simulated !== null && simulated.length > 0 ? <Simulation ids={simulated} /> : null}
    </RequireSignIn>
  );
}
