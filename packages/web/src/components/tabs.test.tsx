import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Tabs } from './tabs';

const tabs = [
  { key: 'index', title: 'Datasets', content: <p>the index</p> },
  { key: 'table', title: 'Specifications table', content: <p>the table</p> },
];

describe('Tabs (plain Bootstrap markup, decision 075)', () => {
  it('shows the first pane only, labelled by its tab, with only the active tab in the tab order', () => {
    render(<Tabs tabs={tabs} />);
    const first = screen.getByRole('tab', { name: 'Datasets' });
    expect(first.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'Specifications table' }).tabIndex).toBe(-1);
    expect(screen.getByRole('tabpanel', { name: 'Datasets' }).textContent).toBe('the index');
    expect(screen.queryByText('the table')).toBeNull();
  });

  it('switches on a click and with the arrow, Home and End keys, moving the focus', async () => {
    render(<Tabs tabs={tabs} />);
    await userEvent.click(screen.getByRole('tab', { name: 'Specifications table' }));
    expect(screen.getByRole('tabpanel', { name: 'Specifications table' }).textContent).toBe('the table');
    expect(screen.queryByText('the index')).toBeNull();
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Datasets' }));
    expect(screen.getByText('the index')).toBeTruthy();
    await userEvent.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Specifications table' }));
    await userEvent.keyboard('{Home}');
    expect(screen.getByRole('tab', { name: 'Datasets' }).getAttribute('aria-selected')).toBe('true');
  });
});
