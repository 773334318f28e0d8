import { useQuery } from '@tanstack/react-query';
import { analytesWithCountsQuery } from '../features/analytes/api/get-analytes';

/** A discreet note while the catalogue holds demo records (spec: demo data marked as such). */
export function DemoBanner() {
  const { data } = useQuery(analytesWithCountsQuery);
  if (!data?.analytes.some((a) => a.is_demo)) return null;
  return (
    <div className="container-lg">
      <p className="alert alert-warning py-1 px-2 small mb-3" role="note">
        Demo data: the records shown come from published studies with provisional demo appraisals, not
        official BIVAC assessments. Not for clinical use.
      </p>
    </div>
  );
}
