import { exportReferenceUrl } from '@bvdb/contract';
import { useMemo, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { ErrorText, Loading } from '../../components/state-views';
import { RequireSignIn } from '../../components/require-sign-in';
import { useAllReferences, useManageByReference } from '../../features/datasets/api/get-manage';
import { ManagedDatasets, ManageFilterForm } from '../../features/datasets/components/manage-filter';

/** "Filter and Manage Data by Reference" (spec section 2): search, choose a reference, see all its datasets. */
export function ReferenceFilterPage() {
  return (
    <RequireSignIn>
      <h1 className="h3">Filter and Manage Data by Reference</h1>
      <ReferenceFilter />
    </RequireSignIn>
  );
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

function ReferenceFilter() {
  const refs = useAllReferences();
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState('');
  const options = useMemo(() => {
    const all = refs.data ?? [];
    const words = fold(search).split(/\s+/).filter(Boolean);
    const matching = words.length
      ? all.filter((r) => {
          const text = fold(`${r.id} ${r.label} ${r.journal ?? ''} ${r.doi ?? ''}`);
          return words.every((w) => text.includes(w));
        })
      : all;
    // Keep the chosen one listed even when the search no longer matches it.
    const picked = all.find((r) => String(r.id) === chosen);
    return picked && !matching.includes(picked) ? [picked, ...matching] : matching;
  }, [refs.data, search, chosen]);
  if (refs.isPending) return <Loading />;
  if (refs.error) {
    console.error(refs.error);
    return <ErrorText>Error: {refs.error.message}</ErrorText>;
  }
  return (
    <ManageFilterForm className="mb-3" chosen={chosen} datasets={(id) => <ReferenceDatasets id={id} />}>
      <Form.Group controlId="manage-reference-search" className="mb-2" style={{ maxWidth: 640 }}>
        <Form.Label>Search references</Form.Label>
        <Form.Control
          type="search"
          placeholder="Author, year, title, journal or doi"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          aria-describedby="manage-reference-count"
        />
        <Form.Text id="manage-reference-count" muted>
          {options.length} of {refs.data.length} references
        </Form.Text>
      </Form.Group>
      <Form.Group controlId="manage-reference" className="mb-2" style={{ maxWidth: 640 }}>
        <Form.Label>Reference</Form.Label>
        <Form.Select value={chosen} onChange={(e) => setChosen(e.target.value)} htmlSize={8}>
          {options.map((r) => (
            <option key={r.id} value={r.id}>
              {r.id}: {r.label}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
    </ManageFilterForm>
  );
}

function ReferenceDatasets({ id }: { id: number }) {
  const q = useManageByReference(id);
  return (
    <ManagedDatasets
      query={q}
      exportUrl={() => exportReferenceUrl(id)}
      caption="Datasets of the chosen reference"
      errorText="Failed to load specifications."
    />
  );
}
