import { useApp } from '../context';

/** A cell's alerts on or off, in its header. */
export function MuteButton({ cellId }: { cellId: string }) {
  const muted = useApp((s) => s.alerts?.prefs.muted.includes(cellId) ?? false);
  const setAlertPrefs = useApp((s) => s.setAlertPrefs);
  const toggle = () => void setAlertPrefs((p) => ({ ...p, muted: muted ? p.muted.filter((id) => id !== cellId) : [...p.muted, cellId] }));
  return (
    <button onClick={toggle} aria-pressed={muted} title={muted ? 'This cell raises no alerts: click to hear from it again' : 'Raise no alerts for this cell'}>
      {muted ? 'Alerts muted' : 'Mute alerts'}
    </button>
  );
}

/** A paired test watched for alerts: said when it crosses p < 0.05, either way. */
export function PinButton({ a, b }: { a: string; b: string }) {
  const pinned = useApp((s) => s.alerts?.prefs.pinned.some((p) => p.a === a && p.b === b) ?? false);
  const setAlertPrefs = useApp((s) => s.setAlertPrefs);
  const toggle = () => void setAlertPrefs((p) => ({ ...p, pinned: pinned ? p.pinned.filter((x) => x.a !== a || x.b !== b) : [...p.pinned, { a, b }] }));
  return (
    <button onClick={toggle} aria-pressed={pinned} title="Raise an alert when this test crosses p < 0.05, either way">
      {pinned ? 'Pinned: alerts on' : 'Pin: alert when significant'}
    </button>
  );
}
