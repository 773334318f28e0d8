import { RcvCalculator } from '../../features/calculators/components/rcv-calculator';
import { ZValueTable } from '../../features/calculators/components/z-value-table';

export function RcvPage() {
  return (
    <>
      <h1 className="h3">Reference Change Value (asymmetric)</h1>
      <RcvCalculator />
      <ZValueTable />
    </>
  );
}
