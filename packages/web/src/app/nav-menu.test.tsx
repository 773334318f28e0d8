import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { NavMenu, NavMenuLink } from './nav-menu';

const menu = () =>
  render(
    <MemoryRouter>
      <ul>
        <NavMenu title="BV Data">
          <NavMenuLink to="/a">First</NavMenuLink>
          <NavMenuLink to="/b">Second</NavMenuLink>
          <NavMenuLink to="/c">Third</NavMenuLink>
        </NavMenu>
      </ul>
    </MemoryRouter>,
  );

const key = (el: Element, k: string) => {
  const event = new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true });
  fireEvent(el, event);
  return event;
};

describe('NavMenu keys (issue 27.10: the menu button pattern)', () => {
  it('ArrowDown on the button opens the menu on its first item and does not scroll the page', () => {
    menu();
    const button = screen.getByRole('button', { name: 'BV Data' });
    button.focus();
    const event = key(button, 'ArrowDown');
    expect(event.defaultPrevented).toBe(true);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement?.textContent).toBe('First');
  });

  it('ArrowUp on the button opens it on the last item', () => {
    menu();
    const button = screen.getByRole('button', { name: 'BV Data' });
    key(button, 'ArrowUp');
    expect(document.activeElement?.textContent).toBe('Third');
  });

  it('in the menu: arrows move and wrap, Home/End jump, Escape closes back on the button', () => {
    menu();
    const button = screen.getByRole('button', { name: 'BV Data' });
    key(button, 'ArrowDown');
    expect(key(document.activeElement!, 'ArrowDown').defaultPrevented).toBe(true);
    expect(document.activeElement?.textContent).toBe('Second');
    key(document.activeElement!, 'ArrowDown');
    key(document.activeElement!, 'ArrowDown');
    expect(document.activeElement?.textContent).toBe('First');
    key(document.activeElement!, 'ArrowUp');
    expect(document.activeElement?.textContent).toBe('Third');
    key(document.activeElement!, 'Home');
    expect(document.activeElement?.textContent).toBe('First');
    key(document.activeElement!, 'End');
    expect(document.activeElement?.textContent).toBe('Third');
    key(document.activeElement!, 'Escape');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });
});
