import { RcvApplication } from '../../features/calculators/components/rcv-application';

export function RcvApplicationPage() {
  return (
    <>
      <h1 className="h3">Application of the RCV</h1>
      <RcvApplication titled={false} findByCode />
    </>
  );
}
