import { formatFixed, type RcvCurvePoint } from '@bvdb/domain';
import Table from 'react-bootstrap/Table';

/** The table alternative of the RCV chart. */
export function RcvCurveTable({ curve }: { curve: RcvCurvePoint[] }) {
  return (
    <details>
      <summary>Data of the chart</summary>
      <Table size="sm" bordered responsive>
        <caption className="caption-top">RCV by probability</caption>
        <thead>
          <tr>
            <th scope="col">Probability</th>
            <th scope="col">p-value</th>
            <th scope="col">z</th>
            <th scope="col">RCV Increase</th>
            <th scope="col">RCV Decrease</th>
          </tr>
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
    </details>
  );
}
