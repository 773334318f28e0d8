import { useState, useSyncExternalStore } from 'react';
import CloseButton from 'react-bootstrap/CloseButton';
import { useSiteInfo } from '../features/content/api/get-site-info';

const DISMISSED_KEY = 'bvdb.demoBannerDismissed';

function wasDismissed(): boolean {
  try {
    return sessionStorage.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

const noSubscription = () => () => undefined;

/** A discreet note while the catalogue holds demo records (spec: demo data marked as such). */
export function DemoBanner() {
  // From the small site-info answer the home page loads anyway, not the whole measurand list.
  const { data } = useSiteInfo();
  // Read after hydration (the server cannot know this browser's choice), so the markup matches.
  const dismissedEarlier = useSyncExternalStore(noSubscription, wasDismissed, () => false);
  const [dismissed, setDismissed] = useState(false);
  if (!data?.demo_data || dismissed || dismissedEarlier) return null;
  const dismiss = () => {
    try {
      sessionStorage.setItem(DISMISSED_KEY, '1');
    } catch {
      // Private mode without storage: hidden for this page view only.
    }
    setDismissed(true);
  };
  return (
    // In the page's flow, in its own landmark: it never covers a table, a form or a modal.
    <aside className="demo-banner" aria-label="Demo data notice">
      <div
        className="alert alert-warning py-1 px-2 small m-0 rounded-0 d-flex align-items-center justify-content-center gap-2"
        role="note"
      >
        <span>
          Demo data
          <span className="d-none d-md-inline">
            : the records shown come from published studies with provisional demo appraisals, not official
            BIVAC assessments
          </span>
          . Not for clinical use.
        </span>
        <CloseButton aria-label="Hide the demo data notice" onClick={dismiss} />
      </div>
    </aside>
  );
}
