import { afterEach, describe, expect, it } from 'vitest';
import { wrapFocusInModals } from './modal-focus-wrap';

function press(shiftKey = false) {
  const event = new KeyboardEvent('keydown', { key: 'Tab', shiftKey, bubbles: true, cancelable: true });
  document.dispatchEvent(event);
  return event.defaultPrevented;
}

let stop: () => void = () => undefined;
afterEach(() => {
  stop();
  document.body.innerHTML = '';
});

describe('focus wrap in modals', () => {
  it('wraps Tab from the last control to the first and Shift+Tab from the first to the last', () => {
    document.body.innerHTML = `
      <button id="outside">outside</button>
      <div class="modal show" role="dialog" tabindex="-1">
        <button id="close">Close</button><input id="cvi" /><button id="calc">Calculate</button>
      </div>`;
    // jsdom has no layout: make every element count as visible.
    for (const el of document.querySelectorAll<HTMLElement>('button, input'))
      Object.defineProperty(el, 'offsetParent', { get: () => document.body });
    stop = wrapFocusInModals(document);
    const byId = (id: string) => document.getElementById(id)!;

    byId('calc').focus();
    expect(press()).toBe(true);
    expect(document.activeElement).toBe(byId('close'));

    expect(press(true)).toBe(true);
    expect(document.activeElement).toBe(byId('calc'));

    // In the middle, the browser moves focus as usual.
    byId('cvi').focus();
    expect(press()).toBe(false);
  });

  it('does nothing when no modal is open', () => {
    document.body.innerHTML = '<button id="a">a</button><button id="b">b</button>';
    stop = wrapFocusInModals(document);
    document.getElementById('b')!.focus();
    expect(press()).toBe(false);
    expect(document.activeElement).toBe(document.getElementById('b'));
  });
});
