import { RcvCalculator } from '../../features/calculators/components/rcv-calculator';

export function RcvPage() {
  return (
    <>
      <h1 className="h3">Reference Change Value (asymmetric)</h1>
      <RcvCalculator />
    </>
  );
}
