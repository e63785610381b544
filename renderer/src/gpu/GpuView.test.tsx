// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CallError } from '../../../shared/contract';
import { problem } from '../../../shared/model';
import { AppProvider } from '../context';
import { fakeTransport } from '../testing';
import { GpuView } from './GpuView';

afterEach(cleanup);

describe('the GPU view when a call fails', () => {
  it('shows the failed fetch in place, by the kind of error the core sent', async () => {
    const transport = fakeTransport({
      systemStatus: () => Promise.reject(new CallError({ name: 'HostUnavailableError', message: 'gpu1 is reconnecting' })),
      listRuns: () => Promise.reject(new CallError({ name: 'NotFoundError', message: 'launched.json is gone' })),
      gpuStatus: async () => ({ available: false, problems: [problem('nvidia-smi', 'nvidia-smi not found')], history: [] }),
    });
    render(
      <AppProvider transport={transport}>
        <GpuView />
      </AppProvider>,
    );
    const alert = await screen.findByText(/^Machine: host unavailable/);
    expect(alert.closest('[role="alert"]')?.getAttribute('data-kind')).toBe('HostUnavailableError');
    expect(alert.closest('[role="alert"]')?.textContent).toBe('Machine: host unavailable · gpu1 is reconnecting');
  });
});

describe('the VRAM peaks', () => {
  it('says no samples for a runner that wrote a peak of 0, and the peak in GiB for one that sampled', async () => {
    const transport = fakeTransport({
      systemStatus: async () => ({ cpuPercent: null, memory: null, disks: [], otherGpus: [], problems: [] }) as never,
      listRuns: async () => [],
      gpuStatus: async () => ({ available: false, problems: [], history: [] }),
    });
    render(
      <AppProvider transport={transport}>
        <GpuView />
      </AppProvider>,
    );
    const cell = (name: string, vramPeakMib: number) => ({ id: `local:/r/${name}`, name, root: '/r', vramPeakMib }) as never;
    act(() => transport.emit('cellsChanged', { root: '/r', added: [cell('no_gpu', 0), cell('on_gpu', 2048)], changed: [], removed: [] }));
    const table = await screen.findByRole('table', { name: 'VRAM peaks' });
    expect(table.textContent).toContain('no_gpuno samplesrunner said');
    expect(table.textContent).toContain('on_gpu2.0 GiBrunner said');
  });
});
