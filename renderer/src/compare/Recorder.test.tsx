import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProvider } from '../context';
import { fakeTransport, type FakeTransport } from '../testing';
import { Recorder } from './Recorder';

function recorder(transport: FakeTransport) {
  render(
    <AppProvider transport={transport}>
      <Recorder slots="a b" seed="900001" seconds={1} fps={25} />
    </AppProvider>,
  );
  return screen.getByRole('button', { name: 'Record mp4' });
}

afterEach(cleanup);

describe('the Record mp4 control', () => {
  it('shows a failure the server reported before the call returned its id', async () => {
    const transport: FakeTransport = fakeTransport({
      record: async () => {
        transport.emit('recordProgress', { id: 'r1', fraction: 0, error: 'ffmpeg exited with code 1' });
        return { id: 'r1' };
      },
    });
    const button = recorder(transport);
    await act(async () => void fireEvent.click(button));
    expect(screen.getByRole('alert').textContent).toBe('ffmpeg exited with code 1');
    expect(screen.getByRole('button', { name: 'Record mp4' })).toBeTruthy();
  });

  it("follows its own recording's progress to the link, whatever another recording reports", async () => {
    const transport = fakeTransport({ record: async () => ({ id: 'mine' }) });
    const button = recorder(transport);
    await act(async () => void fireEvent.click(button));
    act(() => transport.emit('recordProgress', { id: 'mine', fraction: 0.5 }));
    act(() => transport.emit('recordProgress', { id: 'other', fraction: 1, file: '/r/other.mp4', url: 'recordings/other.mp4' }));
    expect(screen.getByRole('progressbar', { name: 'Recording' }).getAttribute('aria-valuenow')).toBe('50');
    expect(screen.queryByRole('link')).toBeNull();
    act(() => transport.emit('recordProgress', { id: 'mine', fraction: 1, file: '/r/mine.mp4', url: 'recordings/mine.mp4' }));
    expect(screen.getByRole('link', { name: 'open the recording (mine.mp4)' }).getAttribute('href')).toBe('recordings/mine.mp4');
  });
});
