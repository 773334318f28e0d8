import { ApsCalculator } from './aps-calculator';
import { IndividualityCalculators } from './individuality-calculators';
import { RcvApplication } from './rcv-application';
import { RcvCalculator } from './rcv-calculator';

export function ApsPage() {
  return (
    <>
      <h1 className="h3">Analytical Performance Specification</h1>
      <ApsCalculator />
    </>
  );
}

export function RcvPage() {
  return (
    <>
      <h1 className="h3">Reference Change Value (asymmetric)</h1>
      <RcvCalculator />
    </>
  );
}

export function RcvApplicationPage() {
  return (
    <>
      <h1 className="h3">Application of the RCV</h1>
      <RcvApplication />
    </>
  );
}

export function IndividualityPage() {
  return (
    <>
      <h1 className="h3">Individuality, set point and personalised reference interval</h1>
      <IndividualityCalculators />
    </>
  );
}
