import type { ImportSummary } from '@bvdb/contract';

const rows = (n: number) => `${n} ${n === 1 ? 'row' : 'rows'}`;

/** What the import deletes, table by table, shown before the user confirms. */
export function ImportDeletes({ summary, replace }: { summary: ImportSummary; replace: boolean }) {
  const deletes = summary.deletes ?? [];
  return (
    <div className={`alert ${deletes.length > 0 ? 'alert-warning' : 'alert-secondary'}`}>
      {deletes.length > 0 ? (
        <>
          <p className="mb-1" id="import-deletes">
            The import deletes:
          </p>
          <ul className="mb-1" aria-labelledby="import-deletes">
            {deletes.map((d) => (
              <li key={d.name}>
                {d.name}: {rows(d.rows)}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="mb-1">The import deletes no rows.</p>
      )}
      {replace ? (
        <p className="mb-0">
          The database is saved first as a complete backup in the data folder (
          <code className="text-reset">backups/</code>).
        </p>
      ) : null}
    </div>
  );
}
