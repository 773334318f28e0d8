import { codeSystemName, codeSystemOf } from '@bvdb/domain';
import { useMeasurandCodes } from '../api/measurand-codes';

/**
 * The codes laboratory systems name the measurand by (issue 45.7): "LOINC 2345-7 (Plasma, mg/dL)",
 * each with the matrix and the unit scale it names, so a laboratory can tell which of its tests it is.
 */
export function MeasurandCodesLine({ measurandId }: { measurandId: number }) {
  const codes = useMeasurandCodes(measurandId);
  if (!codes.data) return null;
  const list = codes.data.codes;
  return (
    <p className="small mb-2" data-testid="measurand-codes">
      Codes:{' '}
      {list.length === 0
        ? 'None recorded'
        : list.map((c, i) => {
            const system = codeSystemOf(c.system);
            const scope = [c.matrix, c.ucum_unit].filter(Boolean).join(', ');
            return (
              <span key={`${c.system}|${c.code}`}>
                {i > 0 ? ' · ' : null}
                <span title={c.source ?? undefined}>
                  {system ? codeSystemName(system) : c.system} <code>{c.code}</code>
                </span>
                {scope ? ` (${scope})` : null}
              </span>
            );
          })}
    </p>
  );
}
