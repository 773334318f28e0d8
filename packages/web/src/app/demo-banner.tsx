import { useQuery } from '@tanstack/react-query';
import { siteInfoQuery } from '../features/content/api/get-site-info';

/** A discreet note while the catalogue holds demo records (spec: demo data marked as such). */
export function DemoBanner() {
  // From the small site-info answer the home page loads anyway, not the whole measurand list.
  const { data } = useQuery(siteInfoQuery);
  if (!data?.demo_data) return null;
  return (
    // Fixed to the bottom edge: it arrives with a data request and must not push the page down.
    <div className="fixed-bottom demo-banner">
      <p className="alert alert-warning py-1 px-2 small m-0 rounded-0 text-center" role="note">
        Demo data: the records shown come from published studies with provisional demo appraisals, not
        official BIVAC assessments. Not for clinical use.
      </p>
    </div>
  );
}
