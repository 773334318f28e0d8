import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import { useController, useFormContext } from 'react-hook-form';
import type { ReferenceOption } from '../api/get-form-options';
import type { DatasetFormValues } from '../dataset-form-values';

/** At most this many matches are listed; typing more narrows them. */
const SHOWN = 50;

/** Lower case without accents, so "Røraas" is found by "roraas" and "Ricós" by "ricos". */
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/ø/g, 'o')
    .toLowerCase();

/** The references whose authors, year, title or journal contain every word typed, in list order. */
export function matchReferences(options: readonly ReferenceOption[], query: string): ReferenceOption[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return options.slice(0, SHOWN);
  return options.filter((o) => {
    const text = fold(`${o.label} ${o.search ?? ''}`);
    return words.every((w) => text.includes(w));
  });
}

/**
 * The dataset's reference: a combobox (WAI-ARIA APG "combobox with listbox popup") searched by
 * author, year, title or journal, instead of a dropdown of a thousand titles. The form's value is
 * the chosen reference's id; the text is only the search. Arrow keys move through the matches,
 * Enter chooses, Escape closes; leaving the box puts back the chosen reference's label.
 */
export function ReferencePicker({ options, id }: { options: readonly ReferenceOption[]; id: string }) {
  const { control } = useFormContext<DatasetFormValues>();
  const { field, fieldState } = useController({ control, name: 'reference_id' });
  const labelOf = (value: string) => options.find((o) => String(o.id) === value)?.label ?? '';
  const [text, setText] = useState(() => labelOf(field.value));
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();
  const hintId = `${id}-hint`;
  const matches = useMemo(() => matchReferences(options, text), [options, text]);
  const shown = matches.slice(0, SHOWN);
  // The form was reset (after a save) or loaded another dataset: show that value's label.
  const [seen, setSeen] = useState(field.value);
  if (seen !== field.value) {
    setSeen(field.value);
    setText(labelOf(field.value));
  }

  const choose = (o: ReferenceOption) => {
    field.onChange(String(o.id));
    setSeen(String(o.id));
    setText(o.label);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) setOpen(true);
      if (shown.length === 0) return;
      setActive((a) =>
        e.key === 'ArrowDown' ? (a + 1) % shown.length : (a - 1 + shown.length) % shown.length,
      );
    } else if (e.key === 'Enter' && open && active >= 0 && shown[active]) {
      e.preventDefault();
      choose(shown[active]);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  const error = fieldState.error?.message;
  return (
    <Form.Group as={Col} md={6} className="mb-3 position-relative">
      <Form.Label htmlFor={id}>Reference</Form.Label>
      <Form.Control
        id={id}
        ref={field.ref}
        name={field.name}
        type="text"
        role="combobox"
        autoComplete="off"
        placeholder="Choose a reference: type an author, a year or words of the title"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        aria-describedby={hintId}
        isInvalid={error !== undefined}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(-1);
          // Typing starts a new choice: until one is made, no reference is chosen.
          if (field.value !== '') {
            field.onChange('');
            setSeen('');
          }
        }}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onBlur={() => {
          setOpen(false);
          setActive(-1);
          if (field.value !== '') setText(labelOf(field.value));
          field.onBlur();
        }}
        onKeyDown={onKeyDown}
      />
      <Form.Text id={hintId} muted>
        {options.length} references; {matches.length} match
        {matches.length > SHOWN ? ` (the first ${SHOWN} listed)` : ''}.
      </Form.Text>
      <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
      <ul
        id={listId}
        role="listbox"
        aria-label="References"
        className={`list-group position-absolute w-100 shadow reference-picker-list${open ? '' : ' d-none'}`}
      >
        {shown.length === 0 ? (
          <li className="list-group-item text-muted" role="option" aria-selected={false} aria-disabled>
            No reference matches
          </li>
        ) : (
          shown.map((o, i) => (
            <li
              key={o.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={String(o.id) === field.value}
              className={`list-group-item list-group-item-action${i === active ? ' active' : ''}`}
              // Chosen before the input's blur closes the list.
              onMouseDown={(e) => {
                e.preventDefault();
                choose(o);
              }}
            >
              {o.label}
            </li>
          ))
        )}
      </ul>
    </Form.Group>
  );
}
