import { useEffect, useState } from 'react';
import { useApp, useTransport } from '../context';
import { WebSocketTransport, type ConnectionState } from '../transport/websocket';

function useConnection(): ConnectionState | null {
  const transport = useTransport();
  const socket = transport instanceof WebSocketTransport ? transport : null;
  const [state, setState] = useState<ConnectionState | null>(socket?.state ?? null);
  useEffect(() => {
    if (!socket) return;
    const off = socket.onState(setState);
    // The socket may have opened between the first render and this subscription.
    setState(socket.state);
    return off;
  }, [socket]);
  return state;
}

export function StatusBar() {
  const info = useApp((s) => s.info);
  const error = useApp((s) => s.error);
  const connection = useConnection();
  const hosts = useApp((s) => s.hosts);
  // Without the server nothing here is current: that is the one thing said, in place of the rest.
  const serverGone = connection !== null && connection !== 'open';
  return (
    <footer className="statusbar">
      {serverGone ? (
        <span className="status-item error" role="status">
          ! {connection === 'connecting' ? 'connecting to the Cellwatch server…' : 'the Cellwatch server is not answering; reconnecting… (what you see is as it last was)'}
        </span>
      ) : (
        <>
          <span className="status-item">
            <span className="dot state-ok" aria-hidden /> local ok
          </span>
          {hosts.map((h) => (
            <span key={h.alias} className={`status-item${h.state === 'connected' ? '' : h.state === 'failed' ? ' error' : ' warn'}`}>
              {h.state === 'connected' ? '●' : h.state === 'failed' ? '!' : '◐'} {h.alias} {h.state}
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
        <span className="status-item error" role="alert">
          ! {error}
        </span>
      )}
      <span className="spacer" />
      <span className="status-item muted">{info ? `${info.transport === 'serve' ? 'serve mode' : 'window'} · v${info.version}` : ''}</span>
    </footer>
  );
}
