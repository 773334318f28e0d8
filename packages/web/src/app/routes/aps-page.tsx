import { ApsCalculator } from '../../features/calculators/components/aps-calculator';

export function ApsPage() {
  return (
    <>
      <h1 className="h3">Analytical Performance Specification</h1>
      <ApsCalculator />
    </>
  );
}
