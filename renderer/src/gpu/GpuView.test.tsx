// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
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
