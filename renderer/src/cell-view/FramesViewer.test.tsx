import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FrameSource } from '../../../shared/cell-detail';
import { AppProvider } from '../context';
import { fakeTransport } from '../testing';
import { FramesViewer } from './FramesViewer';

afterEach(cleanup);

const SOURCE: FrameSource = { kind: 'episode', episode: '7' };

describe('the frames of a running episode', () => {
  it('follow the newest as it is written, stay where the user moved them, and follow again from "go live"', async () => {
    let written = 3;
    const transport = fakeTransport({ listFrames: async () => ({ fps: 2, cameras: [{ name: 'head', urls: Array.from({ length: written }, (_, i) => `/media/f${i}.png`) }] }) });
    const view = (refreshKey: number) => (
      <AppProvider transport={transport}>
        <FramesViewer cellId="local:/runs/a" source={SOURCE} refreshKey={refreshKey} live />
      </AppProvider>
    );
    const { rerender } = render(view(0));
    const shown = () => screen.getByText(/ \/ \d+ · 2 fps$/).textContent;
    expect(await screen.findByText('3 / 3 · 2 fps')).toBeTruthy();
    expect(screen.getByRole('button', { name: '● live' }).getAttribute('aria-pressed')).toBe('true');

    written = 5;
    rerender(view(1));
    expect(await screen.findByText('5 / 5 · 2 fps')).toBeTruthy();

    // The user steps back: the viewer stays there while frames come.
    fireEvent.click(screen.getByRole('button', { name: 'Previous frame' }));
    expect(shown()).toBe('4 / 5 · 2 fps');
    written = 6;
    rerender(view(2));
    expect(await screen.findByText('4 / 6 · 2 fps')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'go live' }).getAttribute('aria-pressed')).toBe('false');

    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'go live' })));
    expect(shown()).toBe('6 / 6 · 2 fps');
    written = 7;
    rerender(view(3));
    expect(await screen.findByText('7 / 7 · 2 fps')).toBeTruthy();
  });
});
