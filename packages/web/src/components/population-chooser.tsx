import { facetSlug, FIXED_FACET_VALUES } from '@bvdb/domain';
import Form from 'react-bootstrap/Form';
import { useLookups } from '../lib/lookups';

/**
 * A population to compute with instead of the global estimates (issue 47.3, decision 098): sex, age
 * band, state of well-being and sampling interval, each "Any" or one value (more values and the other
 * facets — disease, ethnicity, method, matrix — go in the URL as `facet.<name>=a,b`). Loaded on
 * demand by the pages that offer it, so its code and the lookups are not in their first load.
 */
const options = (values: readonly { value: string; label: string }[]) =>
  values.map((v) => [v.value, v.label] as const);

export interface PopulationChooserProps {
  /** `facet` → its values, comma-separated (the URL's). */
  value: Record<string, string>;
  onChange: (next: Record<string, string>) => void;
  /** Prefix of the fields' ids, unique on the page. */
  idPrefix: string;
}

export default function PopulationChooser({ value, onChange, idPrefix }: PopulationChooserProps) {
  const lookups = useLookups();
  const states = [
    ...new Map(
      (lookups.data?.states_of_well_being ?? []).map((s) => [
        facetSlug(s.state_of_well_being_descriptor_expansion),
        s.state_of_well_being_descriptor_expansion,
      ]),
    ),
  ];
  const set = (facet: string, v: string) => {
    const next = { ...value };
    if (v === '') delete next[facet];
    else next[facet] = v;
    onChange(next);
  };
  const field = (facet: string, label: string, options: readonly (readonly [string, string])[]) => {
    const current = value[facet] ?? '';
    // A value from a link that the list does not offer (several values, or another facet value) stays shown.
    const all =
      current && !options.some(([v]) => v === current) ? [...options, [current, current] as const] : options;
    return (
      <Form.Group className="col-6 col-md-3" controlId={`${idPrefix}-${facet}`} key={facet}>
        <Form.Label>{label}</Form.Label>
        <Form.Select value={current} onChange={(e) => set(facet, e.target.value)}>
          <option value="">Any</option>
          {all.map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
    );
  };
  return (
    <fieldset className="row g-2 align-items-end" data-testid={`${idPrefix}-population-chooser`}>
      <legend className="h6 mb-0 col-12">Population (optional: estimates recomputed from its studies)</legend>
      {field('sex', 'Sex', options(FIXED_FACET_VALUES.sex))}
      {field('age', 'Age band', options(FIXED_FACET_VALUES.age))}
      {field('state', 'State of well-being', states)}
      {field('interval', 'Sampling interval', options(FIXED_FACET_VALUES.interval))}
    </fieldset>
  );
}
