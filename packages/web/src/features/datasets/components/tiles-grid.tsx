export interface TileItem {
  id: number;
  name: string;
  bv_specifications_count: number;
}

/** 200 px tiles; a click opens the measurand through /api/search/by_id in a new tab (spec section 2). */
export function TilesGrid({ items }: { items: TileItem[] }) {
  return (
    <ul className="tiles-grid list-unstyled" aria-label="Measurands">
      {items.map((t) => (
        <li key={t.id}>
          <a
            className="tile card card-body text-decoration-none"
            href={`/api/search/by_id?query=${t.id}`}
            target="_blank"
            rel="noopener"
          >
            <span className="fw-semibold">{t.name}</span>
            <span className="small text-muted">
              {t.bv_specifications_count} specification{t.bv_specifications_count === 1 ? '' : 's'}
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}
