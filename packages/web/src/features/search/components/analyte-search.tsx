import type { Suggestion } from '@bvdb/contract';
import { useId, useState, type KeyboardEvent } from 'react';
import Button from 'react-bootstrap/Button';
import { useNavigate } from 'react-router';
import { fetchSuggestions } from '../api/get-suggestions';
import { useSuggestions } from '../use-suggestions';
import { paths } from '../../../lib/paths';

interface Props {
  /** A larger box for the home page. */
  size?: 'lg';
  onSelect?: (s: Suggestion) => void;
  fetcher?: typeof fetchSuggestions;
  /** The text the box starts with (the results page keeps what was searched in its box). */
  defaultText?: string;
  /** On the page's light background rather than in the dark navigation bar. */
  inPage?: boolean;
}

/**
 * The analyte search form of spec section 2: a plain GET form to /api/search/by_analyte (so it works
 * without scripts), with an ARIA combobox of suggestions. Arrow keys move the highlight and fill the
 * text, Enter on a highlighted item selects it, a click selects and clears the list.
 */
export function AnalyteSearch({
  size,
  onSelect,
  fetcher = fetchSuggestions,
  defaultText = '',
  inPage = false,
}: Props) {
  const navigate = useNavigate();
  const [text, setText] = useState(defaultText);
  const [typed, setTyped] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const { suggestions, message, clear } = useSuggestions(typed, fetcher, open);
  const listId = useId();
  const inputId = useId();

  const select = (s: Suggestion) => {
    setText(s.display_name);
    setOpen(false);
    setActive(-1);
    clear();
    if (onSelect) onSelect(s);
    else void navigate(paths.analyte(s.id));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (!open || suggestions.length === 0) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next =
        e.key === 'ArrowDown'
          ? (active + 1) % suggestions.length
          : (active - 1 + suggestions.length) % suggestions.length;
      setActive(next);
      setText(suggestions[next]!.display_name);
    } else if (e.key === 'Enter' && active >= 0) {
      e.preventDefault();
      select(suggestions[active]!);
    } else if (e.key === 'Escape') {
      setOpen(false);
      setActive(-1);
    }
  };

  const showList = open && (suggestions.length > 0 || message !== null);
  return (
    <form
      action="/api/search/by_analyte"
      method="get"
      role="search"
      className="position-relative d-flex gap-2"
      autoComplete="off"
    >
      <input type="hidden" name="format" value="html" />
      <label htmlFor={inputId} className="visually-hidden">
        Search for analyte
      </label>
      <input
        id={inputId}
        name="query"
        type="search"
        className={`form-control${size === 'lg' ? ' form-control-lg' : ''}`}
        placeholder="Search for analyte"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setTyped(e.target.value);
          setActive(-1);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onFocus={() => setOpen(true)}
      />
      <Button type="submit" variant={size === 'lg' || inPage ? 'primary' : 'outline-light'} size={size}>
        Search
      </Button>
      <ul
        id={listId}
        role="listbox"
        aria-label="Suggestions"
        className={`list-group position-absolute top-100 start-0 shadow z-3 mt-1 autocomplete-list${showList ? '' : ' d-none'}`}
      >
        {suggestions.map((s, i) => (
          <li
            key={s.id}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            className={`list-group-item list-group-item-action${i === active ? ' active' : ''}`}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => select(s)}
          >
            {s.display_name}
          </li>
        ))}
        {message ? (
          <li
            className={`list-group-item ${message.startsWith('Failed') ? 'text-danger' : 'text-muted'}`}
            role="option"
            aria-selected={false}
            aria-disabled="true"
          >
            {message}
          </li>
        ) : null}
      </ul>
    </form>
  );
}
