import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ViewBoundary } from './ViewBoundary';

afterEach(cleanup);

describe('a view that throws', () => {
  it('shows its error in its place, keeps the rest of the window, and tries again on request', () => {
    let broken = true;
    const Panel = () => {
      if (broken) throw new Error('cannot read properties of undefined');
      return <p>panel works</p>;
    };
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <>
        <ViewBoundary name="GPU">
          <Panel />
        </ViewBoundary>
        <p>status bar</p>
      </>,
    );
    expect(screen.getByRole('alert', { name: 'GPU failed' }).textContent).toContain('GPU stopped working: cannot read properties of undefined');
    expect(screen.getByText('status bar')).toBeTruthy();
    broken = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('panel works')).toBeTruthy();
  });
});
