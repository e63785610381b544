import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Bar } from './BudgetBars';

afterEach(cleanup);

const figureOf = (name: string) => (screen.getByRole('meter', { name }).nextElementSibling as HTMLElement);

describe("a cell's budget bar", () => {
  it('says what is used, its share and what is left', () => {
    render(<Bar label="budget" name="episodes budget" used={1} total={4} unit="episodes" />);
    expect(figureOf('episodes budget').textContent).toBe('1 / 4 episodes · 25% · 3 left');
    expect(figureOf('episodes budget').className).not.toContain('tone-fail');
  });

  it('says a count past its plan as the problem it is: how far past, never 100% or less than nothing left', () => {
    render(<Bar label="budget" name="episodes budget" used={3} total={2} unit="episodes" />);
    expect(figureOf('episodes budget').textContent).toBe('3 / 2 episodes · 1 past its plan');
    expect(figureOf('episodes budget').className).toContain('tone-fail');
    expect(screen.getByRole('meter', { name: 'episodes budget' }).firstElementChild?.className).toBe('fill tone-fill-fail');
  });
});
