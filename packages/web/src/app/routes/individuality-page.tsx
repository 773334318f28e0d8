import { IndividualityCalculators } from '../../features/calculators/components/individuality-calculators';

export function IndividualityPage() {
  return (
    <>
      <h1 className="h3">Individuality, set point and personalised reference interval</h1>
      <IndividualityCalculators />
    </>
  );
}
