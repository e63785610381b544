import type { Alert } from '../../../shared/alerts';

/** Whether this window can show system notifications, and what the user said. */
export function notificationPermission(): NotificationPermission | 'unsupported' {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/**
 * A system notification for an alert, where the user allowed them (Electron allows them; a browser asks,
 * from the notification centre's button, never on its own). Its tag is the alert's key: several windows
 * of one server show it once.
 */
export function notify(alert: Alert, onClick: () => void): void {
  if (notificationPermission() !== 'granted') return;
  const shown = new Notification(`${alert.subject}`, { body: alert.message, tag: alert.key });
  shown.onclick = () => {
    window.focus();
    onClick();
    shown.close();
  };
}
