import { exportDatabaseUrl } from '@bvdb/contract';

/**
 * Links to the whole-database downloads (every published dataset and meta-analysis result), shown on
 * the home page and the lists so a reader finds them without the API documentation.
 */
export function DatabaseDownloads({ className = '' }: { className?: string }) {
  return (
    <nav aria-label="Download the whole database" className={`small d-print-none ${className}`}>
      <span className="me-2">Download the whole database:</span>
      <a href={exportDatabaseUrl('xlsx')} download className="me-3 text-nowrap" data-testid="download-xlsx">
        Excel (.xlsx)
      </a>
      <a href={exportDatabaseUrl('csv')} download className="text-nowrap" data-testid="download-csv">
        CSV (.csv)
      </a>
    </nav>
  );
}
