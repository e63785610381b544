import { useCallback, useState } from 'react';
import { ALERT_KINDS, type AlertKind } from '../../../shared/alerts';
import { useApp } from '../context';
import { useEscape } from '../keys';

const KINDS = Object.keys(ALERT_KINDS) as AlertKind[];

/** A cell's alerts, in its header: all of them off at once (muted), or kind by kind. */
export function MuteButton({ cellId }: { cellId: string }) {
  const off = useApp((s) => s.alerts?.prefs.cellOff[cellId]);
  const setAlertPrefs = useApp((s) => s.setAlertPrefs);
  const [open, setOpen] = useState(false);
  useEscape(open, useCallback(() => setOpen(false), []));
  const offKinds = off ?? [];
  const muted = offKinds.length === KINDS.length;
  const set = (kinds: AlertKind[]) =>
    void setAlertPrefs((p) => {
      const { [cellId]: _was, ...others } = p.cellOff;
      return { ...p, cellOff: kinds.length ? { ...others, [cellId]: kinds } : others };
    });
  return (
    <div className="alerts">
      <button onClick={() => setOpen(!open)} aria-expanded={open} title="Which alerts this cell raises">
        {muted ? 'Alerts muted' : offKinds.length ? `Alerts: ${KINDS.length - offKinds.length} of ${KINDS.length}` : 'Alerts'}
      </button>
      {open && (
        <div className="alerts-panel cell-alerts" role="dialog" aria-label="Alerts of this cell">
          <label>
            <input type="checkbox" checked={muted} onChange={(e) => set(e.target.checked ? KINDS : [])} /> Mute this cell (no alert of any kind)
          </label>
          <fieldset className="alert-settings">
            <legend>This cell raises an alert when</legend>
            {KINDS.map((kind) => (
              <label key={kind}>
                <input type="checkbox" checked={!offKinds.includes(kind)} onChange={(e) => set(e.target.checked ? offKinds.filter((k) => k !== kind) : [...offKinds, kind])} />
                {ALERT_KINDS[kind]}
              </label>
            ))}
          </fieldset>
        </div>
      )}
    </div>
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
