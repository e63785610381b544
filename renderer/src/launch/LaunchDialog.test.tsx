import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { GpuStatus } from '../../../shared/machine';
import type { ProfileInfo, RunInfo } from '../../../shared/launch';
import type { HostStatus } from '../../../shared/contract';
import { problem } from '../../../shared/model';
import { AppProvider, useApp } from '../context';
import { fakeTransport } from '../testing';
import { LaunchDialog } from './LaunchDialog';

const demo: ProfileInfo = { name: 'demo', description: 'the demo', format: 'coding-agent', gpu: false, canDrain: false, knobs: [] };

/** Renders the dialog; `renders()` counts its commits so far (React's Profiler). */
function open(gpu: GpuStatus) {
  const transport = fakeTransport({
    gpuStatus: async () => gpu,
    listProfiles: async () => [demo],
  });
  let renders = 0;
  const { unmount } = render(
    <Profiler id="launch" onRender={() => renders++}>
      <AppProvider transport={transport}>
        <LaunchDialog onClose={() => undefined} />
      </AppProvider>
    </Profiler>,
  );
  return { unmount, renders: () => renders };
}

afterEach(cleanup);

/** A host of the Hosts list, its connection still opening. */
const host = (alias: string): HostStatus => ({ alias, state: 'connecting', problem: null, retryAt: null, unknownKey: null, lockedKey: null, latencyMs: null, via: null });

/** The view the window shows, as text. */
function ShownView() {
  return <output aria-label="View">{useApp((s) => s.view)}</output>;
}

describe('the Launch dialog', () => {
  it('opens on a machine with no GPU sample, without re-rendering without end', async () => {
    const rendered = open({ available: false, problems: [problem('nvidia-smi', 'nvidia-smi not found')], history: [] });
    await act(async () => undefined);
    expect(screen.getByRole('dialog', { hidden: true })).toBeTruthy();
    expect(await screen.findByRole('option', { name: /demo/, hidden: true })).toBeTruthy();
    // Settled: a few commits (the dialog, its profiles, its plan), then none while nothing changes.
    const settled = rendered.renders();
    expect(settled).toBeLessThan(20);
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(rendered.renders()).toBe(settled);
    rendered.unmount();
  });

  it('says it is asking an SSH host for its profiles while the host has not answered, its buttons waiting', async () => {
    // The host never answers (its connection still opening); this machine does at once.
    const transport = fakeTransport({ gpuStatus: async () => ({ available: false, problems: [], history: [] }), listProfiles: (target) => (target === 'gpu1' ? new Promise(() => undefined) : Promise.resolve([demo])) });
    render(
      <AppProvider transport={transport}>
        <LaunchDialog onClose={() => undefined} />
      </AppProvider>,
    );
    await act(async () => transport.emit('hostsChanged', [host('gpu1')]));
    await screen.findByRole('option', { name: /demo/, hidden: true });
    expect(screen.queryByRole('status', { hidden: true })).toBeNull();
    fireEvent.change(screen.getByLabelText('Target'), { target: { value: 'gpu1' } });
    expect((await screen.findByRole('status', { hidden: true })).textContent).toBe("Asking gpu1 for its home and the profiles' defaults…");
    expect((screen.getByRole('button', { name: 'Dry run', hidden: true }) as HTMLButtonElement).disabled).toBe(true);
  });
  it("keeps the host's answer when this machine's, asked first, arrives after it", async () => {
    let answerHere: (list: ProfileInfo[]) => void = () => undefined;
    const onHost: ProfileInfo = { ...demo, knobs: [{ key: 'out', label: 'Out', default: '/home/u/.local/share/cellwatch' }] };
    const transport = fakeTransport({
      gpuStatus: async () => ({ available: false, problems: [], history: [] }),
      listProfiles: (target) => (target === 'gpu1' ? Promise.resolve([onHost]) : new Promise((resolve) => (answerHere = resolve))),
    });
    render(
      <AppProvider transport={transport}>
        <LaunchDialog onClose={() => undefined} />
      </AppProvider>,
    );
    await act(async () => transport.emit('hostsChanged', [{ ...host('gpu1'), state: 'connected' }]));
    fireEvent.change(screen.getByLabelText('Target'), { target: { value: 'gpu1' } });
    // The knob is filled in the render after the one that shows it.
    await screen.findByDisplayValue('/home/u/.local/share/cellwatch');
    await act(async () => answerHere([demo]));
    expect((screen.getByLabelText('Out') as HTMLInputElement).value).toBe('/home/u/.local/share/cellwatch');
    expect((screen.getByRole('button', { name: 'Dry run', hidden: true }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('asks a host again once it is connected, when it was asked while its connection failed', async () => {
    let asked = 0;
    const transport = fakeTransport({
      gpuStatus: async () => ({ available: false, problems: [], history: [] }),
      listProfiles: async (target) => {
        if (target !== 'gpu1') return [demo];
        if (++asked === 1) throw new Error('gpu1 did not connect in 20 s (connection refused)');
        return [demo];
      },
    });
    render(
      <AppProvider transport={transport}>
        <LaunchDialog onClose={() => undefined} />
      </AppProvider>,
    );
    await act(async () => transport.emit('hostsChanged', [{ ...host('gpu1'), state: 'reconnecting' }]));
    await screen.findByRole('option', { name: /demo/, hidden: true });
    fireEvent.change(screen.getByLabelText('Target'), { target: { value: 'gpu1' } });
    expect((await screen.findByRole('alert', { hidden: true })).textContent).toContain('gpu1 did not connect in 20 s');
    expect((screen.getByRole('button', { name: 'Dry run', hidden: true }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => transport.emit('hostsChanged', [{ ...host('gpu1'), state: 'connected' }]));
    expect(asked).toBe(2);
    expect(screen.queryByRole('alert', { hidden: true })).toBeNull();
    expect((screen.getByRole('button', { name: 'Dry run', hidden: true }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows Runs after a launch whose run has no cell yet: a Slurm job waiting in its queue', async () => {
    const pending: RunInfo = {
      id: 'r1', name: 'ui_demo_coding-agent', profile: 'demo', target: 'slurm', host: 'local', cell: '/runs/ui_demo_coding-agent', cellId: 'local:/runs/ui_demo_coding-agent',
      pid: null, job: { id: '7', state: 'PENDING', reason: 'Resources', node: null, exitCode: null }, gpu: null, startedAt: 0, endedAt: null, state: 'pending',
      exitCode: null, canDrain: false, resumes: null, stderrTail: [], vramPeakMib: null, problem: null,
    };
    const transport = fakeTransport({
      gpuStatus: async () => ({ available: false, problems: [], history: [] }),
      listProfiles: async () => [demo],
      planLaunch: () => new Promise(() => undefined),
      launchRun: async () => ({ run: pending, cellId: null, problem: null }),
    });
    let closed = false;
    render(
      <AppProvider transport={transport}>
        <ShownView />
        <LaunchDialog onClose={() => (closed = true)} />
      </AppProvider>,
    );
    await screen.findByRole('option', { name: /demo/, hidden: true });
    expect(screen.getByLabelText('View').textContent).toBe('cells');
    await act(async () => fireEvent.submit(screen.getByRole('dialog', { hidden: true }).querySelector('form') as HTMLFormElement));
    expect(transport.calls).toContain('launchRun');
    expect(closed).toBe(true);
    expect(screen.getByLabelText('View').textContent).toBe('runs');
  });
});
