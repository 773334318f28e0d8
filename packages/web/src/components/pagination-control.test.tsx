import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { pageWindow, PaginationControl } from './pagination-control';

describe('PaginationControl', () => {
  it('disables previous on page 1 and next on the last page', async () => {
    const onPageChange = vi.fn();
    const { rerender, container } = render(
      <PaginationControl totalRecords={25} currentPage={1} totalPages={3} onPageChange={onPageChange} />,
    );
    const items = () => [...container.querySelectorAll('li.page-item')];
    expect(items()[0]!.className).toContain('disabled');
    expect(items().at(-1)!.className).not.toContain('disabled');
    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(onPageChange).toHaveBeenCalledWith(2);
    rerender(
      <PaginationControl totalRecords={25} currentPage={3} totalPages={3} onPageChange={onPageChange} />,
    );
    expect(items().at(-1)!.className).toContain('disabled');
    expect(items()[0]!.className).not.toContain('disabled');
    expect(screen.getByText(/Total Records/).textContent).toBe('Total Records: 25');
  });

  it('shows a window of pages around the current one', () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(10, 20)).toEqual([8, 9, 10, 11, 12]);
    expect(pageWindow(20, 20)).toEqual([16, 17, 18, 19, 20]);
  });
});
