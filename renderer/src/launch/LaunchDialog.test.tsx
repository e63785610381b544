// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { GpuStatus } from '../../../shared/cell-detail';
import type { ProfileInfo } from '../../../shared/launch';
import { problem } from '../../../shared/model';
import { AppProvider } from '../context';
import { fakeTransport } from '../testing';
import { LaunchDialog } from './LaunchDialog';

const demo: ProfileInfo = { name: 'demo', description: 'the demo', format: 'coding-agent', gpu: false, canDrain: false, knobs: [] };

function open(gpu: GpuStatus) {
  const transport = fakeTransport({
    gpuStatus: async () => gpu,
    listProfiles: async () => [demo],
  });
  return render(
    <AppProvider transport={transport}>
      <LaunchDialog onClose={() => undefined} />
    </AppProvider>,
  );
}

afterEach(cleanup);

describe('the Launch dialog', () => {
  it('opens on a machine with no GPU sample, without re-rendering without end', async () => {
    const rendered = open({ available: false, problems: [problem('nvidia-smi', 'nvidia-smi not found')], history: [] });
    await act(async () => undefined);
    expect(screen.getByRole('dialog', { hidden: true })).toBeTruthy();
    expect(await screen.findByRole('option', { name: /demo/, hidden: true })).toBeTruthy();
    rendered.unmount();
  });
});
