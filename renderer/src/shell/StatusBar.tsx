import { useApp, usePresence } from '../context';
import { hostPresence, type Presence } from '../../../shared/presence';
import { kindOf } from '../../../shared/errors';

/** A host's mark and tone in the bar, by its presence. */
const MARK: Record<Presence, string> = { live: '●', connecting: '◐', reconnecting: '◐', stopped: '○', failed: '!' };
const TONE: Record<Presence, string> = { live: '', connecting: ' warn', reconnecting: ' warn', stopped: ' warn', failed: ' error' };

export function StatusBar() {
  const info = useApp((s) => s.info);
  const error = useApp((s) => s.error);
  const presence = usePresence();
  const hosts = useApp((s) => s.hosts);
  // Without the server nothing here is current: that is the one thing said, in place of the rest.
  const serverGone = presence !== 'live';
  return (
    <footer className="statusbar">
      {serverGone ? (
        <span className="status-item error" role="status">
          ! {presence === 'connecting' ? 'connecting to the Cellwatch server…' : 'the Cellwatch server is not answering; reconnecting… (what you see is as it last was)'}
        </span>
      ) : (
        <>
          <span className="status-item">
            <span className="dot state-ok" aria-hidden /> local ok
          </span>
          {hosts.map((h) => (
            <span key={h.alias} className={`status-item${TONE[hostPresence(h.state)]}`}>
              {MARK[hostPresence(h.state)]} {h.alias} {h.state}
            </span>
          ))}
        </>
      )}
      {info?.problems.map((p) => (
        <span key={p.file} className="status-item error" title={p.file}>
          ! {p.message}
        </span>
      ))}
      {error && (
        <span className="status-item error" role="alert" data-kind={error.name} title={kindOf(error).tip ?? undefined}>
          ! {error.message}
        </span>
      )}
      <span className="spacer" />
      <span className="status-item muted">{info ? `${info.transport === 'serve' ? 'serve mode' : 'window'} · v${info.version}` : ''}</span>
    </footer>
  );
}
