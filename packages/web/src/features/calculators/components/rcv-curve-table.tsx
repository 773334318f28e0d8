import { formatFixed, type RcvCurvePoint } from '@bvdb/domain';
import Table from 'react-bootstrap/Table';
import { HeaderRow } from '../../../components/header-row';
import { ScrollRegion } from '../../../components/scroll-region';

/** The table alternative of the RCV chart. */
export function RcvCurveTable({
  curve,
  withoutCva = false,
}: {
  curve: RcvCurvePoint[];
  withoutCva?: boolean;
}) {
  return (
    <details>
      <summary>Data of the chart</summary>
      <ScrollRegion label="Data of the chart (scrolls sideways)">
        <Table size="sm" bordered>
          <caption className="caption-top">
            RCV by probability{withoutCva ? ', without analytical variation' : ''}
          </caption>
          <thead>
            <HeaderRow names={['Probability', 'p-value', 'z', 'RCV Increase', 'RCV Decrease']} />
          </thead>
          <tbody>
            {curve.map((p) => (
              <tr key={p.fraction}>
                <td>{formatFixed(p.fraction, 3)}</td>
                <td>{formatFixed(p.pValue, 3)}</td>
                <td>{formatFixed(p.z, 2)}</td>
                <td>{formatFixed(p.up, 1)}%</td>
                <td>{formatFixed(p.down, 1)}%</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </ScrollRegion>
    </details>
  );
}
