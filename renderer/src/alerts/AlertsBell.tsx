import { useCallback, useEffect, useRef, useState } from 'react';
import { ALERT_KINDS, type Alert, type AlertKind } from '../../../shared/alerts';
import { useApp } from '../context';
import { clockMinutes, sameDay } from '../../../shared/model';
import { counted } from '../format';
import { useEscape } from '../keys';
import { notificationPermission } from './notify';

const TONE: Record<AlertKind, string> = {
  finished: 'ok', evaluated: 'running', interrupted: 'fail', crashed: 'fail', eval_failed: 'fail', void: 'grey', budget: 'amber', throttled: 'amber', stalled: 'amber', stuck: 'amber', host_down: 'fail', gpu_low: 'amber', paired: 'running',
};

const dayOf = (at: number) => new Date(at).toLocaleDateString([], { month: 'short', day: 'numeric' });

const when = (at: number) => (sameDay(at, Date.now()) ? clockMinutes(at) : dayOf(at));

/** The time column's width: the longest this locale writes a time or a day ("10:38 PM", "Dec 28"), and a little. */
const whenWidth = () => `${Math.max(clockMinutes(new Date(2000, 11, 28, 22, 58).getTime()).length, dayOf(new Date(2000, 11, 28).getTime()).length) + 1}ch`;

function BellIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round">
      <path d="M4 11V7a4 4 0 0 1 8 0v4l1.5 1.5h-11Z" />
      <path d="M6.5 14a1.5 1.5 0 0 0 3 0" />
    </svg>
  );
}

/** The browser asks once, from this button; Electron's window may notify without asking. */
function SystemNotifications() {
  const [permission, setPermission] = useState(notificationPermission);
  if (permission === 'unsupported') return null;
  if (permission === 'granted') return <span className="muted">System notifications on</span>;
  if (permission === 'denied') return <span className="muted">System notifications blocked in this browser's site settings</span>;
  return <button onClick={() => void Notification.requestPermission().then(setPermission)}>Show system notifications</button>;
}

function Settings() {
  const prefs = useApp((s) => s.alerts?.prefs);
  const setAlertPrefs = useApp((s) => s.setAlertPrefs);
  if (!prefs) return null;
  const toggle = (kind: AlertKind, on: boolean) => void setAlertPrefs((p) => ({ ...p, off: on ? p.off.filter((k) => k !== kind) : [...p.off, kind] }));
  return (
    <fieldset className="alert-settings">
      <legend>Raise an alert when</legend>
      {(Object.keys(ALERT_KINDS) as AlertKind[]).map((kind) => (
        <label key={kind}>
          <input type="checkbox" checked={!prefs.off.includes(kind)} onChange={(e) => toggle(kind, e.target.checked)} />
          {ALERT_KINDS[kind]}
        </label>
      ))}
      <label>
        Stalled after{' '}
        <input
          type="number"
          min={1}
          className="minutes"
          aria-label="Minutes without new bytes before a running cell has stalled"
          defaultValue={Math.round(prefs.stallSeconds / 60)}
          onBlur={(e) => {
            const minutes = Number(e.target.value);
            if (minutes >= 1) void setAlertPrefs((p) => ({ ...p, stallSeconds: minutes * 60 }));
          }}
        />{' '}
        min without new bytes
      </label>
      {Object.keys(prefs.cellOff).length > 0 && (
        <p className="muted">
          {counted(Object.keys(prefs.cellOff).length, 'cell')} with alerts turned off (in the cell's header)
        </p>
      )}
    </fieldset>
  );
}

function AlertRow({ alert, unread, onOpen }: { alert: Alert; unread: boolean; onOpen: (alert: Alert) => void }) {
  const listed = useApp((s) => alert.cell !== null && s.cells.some((c) => c.id === alert.cell));
  return (
    <li className={unread ? 'unread' : undefined}>
      <button className="alert-row" disabled={!listed} onClick={() => onOpen(alert)} title={listed ? 'Open the cell' : alert.cell ? 'This cell is not listed now' : undefined}>
        <time dateTime={new Date(alert.at).toISOString()}>{when(alert.at)}</time>
        <span className={`dot tone-${TONE[alert.kind]}`} aria-hidden />
        <span className="alert-subject">{alert.subject}</span>
        <span className="alert-message">{alert.message}</span>
      </button>
    </li>
  );
}

/** The notification centre: a bell with the unread count, and the list of alerts, newest first. */
export function AlertsBell() {
  const alerts = useApp((s) => s.alerts);
  const openCell = useApp((s) => s.openCell);
  const markAlertsRead = useApp((s) => s.markAlertsRead);
  const open = useApp((s) => s.alertsOpen);
  const setOpen = useApp((s) => s.setAlertsOpen);
  const [settings, setSettings] = useState(false);
  // What was unread when the list opened stays marked while it is open.
  const [readBefore, setReadBefore] = useState(0);
  const panel = useRef<HTMLDivElement>(null);
  const unread = alerts ? alerts.alerts.filter((a) => a.at > alerts.readUntil).length : 0;

  useEffect(() => {
    if (open) panel.current?.focus();
  }, [open]);
  useEscape(open, useCallback(() => setOpen(false), [setOpen]));
  // Alerts that arrive while the list is open are seen.
  useEffect(() => {
    if (open) void markAlertsRead();
  }, [open, alerts?.alerts.length, markAlertsRead]);

  const toggle = () => {
    if (!open) setReadBefore(alerts?.readUntil ?? 0);
    setOpen(!open);
  };
  const onOpen = (alert: Alert) => {
    if (alert.cell) openCell(alert.cell, alert.tab);
    setOpen(false);
  };
  return (
    <div className="alerts">
      <button className="bell" onClick={toggle} aria-expanded={open} aria-label={`Alerts, ${unread} unread`} title="Alerts">
        <BellIcon />
        {unread > 0 && <span className="unread-count">{unread > 99 ? '99+' : unread}</span>}
      </button>
      {open && (
        <div className="alerts-panel" role="dialog" aria-label="Alerts" ref={panel} tabIndex={-1}>
          <div className="alerts-head">
            <strong>Alerts</strong>
            <span className="spacer" />
            <SystemNotifications />
            <button onClick={() => setSettings(!settings)} aria-pressed={settings}>
              Settings
            </button>
          </div>
          {settings && <Settings />}
          {!alerts || alerts.alerts.length === 0 ? (
            <p className="empty-note">No alerts yet. Cellwatch says here when a run finishes, fails, stalls or becomes significant.</p>
          ) : (
            <ul className="alert-list" style={{ '--when': whenWidth() } as React.CSSProperties}>
              {[...alerts.alerts].reverse().map((alert) => (
                <AlertRow key={alert.key} alert={alert} unread={alert.at > readBefore} onOpen={onOpen} />
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
