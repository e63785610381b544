import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CallError } from '../../../shared/contract';
import { problem } from '../../../shared/model';
import { AppProvider } from '../context';
import { fakeTransport, type FakeTransport } from '../testing';
import type { SystemSample } from '../../../shared/machine';
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

/** The GPU view of a machine with no GPU and no launched run, whose system status is `system`. */
function showWithoutGpu(system: SystemSample): FakeTransport {
  const transport = fakeTransport({
    systemStatus: async () => system,
    listRuns: async () => [],
    gpuStatus: async () => ({ available: false, problems: [], history: [] }),
  });
  render(
    <AppProvider transport={transport}>
      <GpuView />
    </AppProvider>,
  );
  return transport;
}

describe('the VRAM peaks', () => {
  it('says no samples for a runner that wrote a peak of 0, and the peak in GiB for one that sampled', async () => {
    const transport = showWithoutGpu({ cpuLoadPct: null, memory: null, disks: [], otherGpus: [], history: [] });
    const cell = (name: string, vramPeakMib: number) => ({ id: `local:/r/${name}`, name, root: '/r', vramPeakMib }) as never;
    act(() => transport.emit('cellsChanged', { root: '/r', added: [cell('no_gpu', 0), cell('on_gpu', 2048)], changed: [], removed: [] }));
    const table = await screen.findByRole('table', { name: 'VRAM peaks' });
    expect(table.textContent).toContain('no_gpuno samplesrunner said');
    expect(table.textContent).toContain('on_gpu2.0 GiBrunner said');
  });
});

describe('the machine without a GPU', () => {
  it('shows CPU, memory and each disk now in words, and their last minutes as a chart', async () => {
    const now = Date.now();
    const point = (minutesAgo: number, share: number) => ({ t: now - minutesAgo * 60_000, cpu: share, memory: share / 2, disks: { '/data': 0.4 } });
    showWithoutGpu({
      cpuLoadPct: 12.5,
      memory: { totalMib: 24_576, usedMib: 6144 },
      disks: [{ mount: '/data', sizeGib: 100, usedGib: 40 }],
      otherGpus: [],
      history: [point(8, 0.1), point(4, 0.6), point(0, 0.125)],
    });
    const machine = await screen.findByLabelText('Machine');
    expect(machine.textContent).toBe('CPU 12.5%memory 6.0 / 24.0 GiBdisk /data 40 / 100 GiB');
    // Its lines are drawn by recharts in a sized box (e2e/gpu.spec.ts looks at them in a browser).
    expect(screen.getByRole('figure', { name: 'Machine over time' }).textContent).toContain('CPU, memory and disks in use (%)');
  });
});
