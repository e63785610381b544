import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_PREFS, type Alert, type AlertsState } from '../../../shared/alerts';
import type { CellSummary } from '../../../shared/model';
import { AppProvider, useApp } from '../context';
import { fakeTransport } from '../testing';
import { AlertsBell } from './AlertsBell';

const cell = { id: 'local:/runs/std_a', name: 'std_a' } as CellSummary;
const alert = (key: string, at: number, more: Partial<Alert> = {}): Alert => ({ key, kind: 'finished', at, cell: cell.id, subject: 'std_a', message: 'finished: 50.0 % success (1 of 2 scored)', ...more });

function OpenCell() {
  const load = useApp((s) => s.load);
  useEffect(() => void load(), [load]);
  const open = useApp((s) => `${s.openCellId ?? ''} ${s.openCellTab}`);
  return <output aria-label="Open cell">{open}</output>;
}

async function mount(state: AlertsState) {
  let server = state;
  const transport = fakeTransport({
    getInfo: async () => ({ name: 'Cellwatch', version: '0', transport: 'serve', canPickFolder: false, settingsFile: '', whatIsACell: '', demoContents: '', problems: [] }),
    listRoots: async () => [],
    listCells: async () => [cell],
    gpuStatus: async () => ({ available: false, problems: [], history: [] }),
    listHosts: async () => [],
    listAlerts: async () => server,
    markAlertsRead: async (until) => (server = { ...server, readUntil: until }),
  });
  const rendered = render(
    <AppProvider transport={transport}>
      <AlertsBell />
      <OpenCell />
    </AppProvider>,
  );
  await act(async () => undefined);
  /** The core keeps an alert, then sends it. */
  const raise = (a: Alert) => {
    server = { ...server, alerts: [...server.alerts, a] };
    transport.emit('alertRaised', a);
  };
  return { transport, rendered, raise };
}

afterEach(cleanup);

describe('the notification centre', () => {
  it('counts unread alerts, new ones included; opening it reads them; an entry opens its cell', async () => {
    const { transport, raise } = await mount({ alerts: [alert('a', 1000), alert('b', 2000, { cell: 'local:/gone', subject: 'gone' })], readUntil: 1000, prefs: DEFAULT_ALERT_PREFS });
    expect(screen.getByRole('button', { name: 'Alerts, 1 unread' })).toBeTruthy();
    await act(async () => raise(alert('c', 3000, { kind: 'stalled', message: 'stalled: no new bytes for 10 min', tab: 'episodes' })));
    const bell = screen.getByRole('button', { name: 'Alerts, 2 unread' });

    await act(async () => fireEvent.click(bell));
    expect(transport.calls).toContain('markAlertsRead');
    expect(screen.getByRole('button', { name: 'Alerts, 0 unread' })).toBeTruthy();
    const entries = screen.getAllByRole('listitem');
    // Newest first; what was unread when it opened stays marked; a cell no longer listed cannot be opened.
    expect(entries.map((e) => [e.textContent, e.className])).toEqual([
      [expect.stringContaining('stalled: no new bytes for 10 min'), 'unread'],
      [expect.stringContaining('gone'), 'unread'],
      [expect.stringContaining('std_a'), ''],
    ]);
    expect((entries[1]?.querySelector('button') as HTMLButtonElement).disabled).toBe(true);
    await act(async () => fireEvent.click(entries[0]?.querySelector('button') as HTMLButtonElement));
    // At the tab that shows it: a stalled run's episodes.
    expect(screen.getByRole('status', { name: 'Open cell' }).textContent).toBe(`${cell.id} episodes`);
    expect(screen.queryByRole('dialog', { name: 'Alerts' })).toBeNull();
  });
});
