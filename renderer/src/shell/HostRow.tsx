import { useState } from 'react';
import type { HostStatus } from '../../../shared/contract';
import { useData } from '../context';
import { useNow } from '../useNow';

/** The dot a host's connection state shows: in the sidebar and the Fleet view. */
export const HOST_DOT: Record<HostStatus['state'], string> = { connected: 'state-ok', connecting: 'state-scanning', reconnecting: 'tone-bg-amber', failed: 'state-missing' };

/** An SSH host: its connection state (a countdown while reconnecting), and what it needs from the user. */
export function HostRow({ host }: { host: HostStatus }) {
  const { hosts } = useData();
  const now = useNow(1000);
  const [passphrase, setPassphrase] = useState('');
  const seconds = host.retryAt ? Math.max(0, Math.ceil((host.retryAt - now) / 1000)) : null;
  const label = host.state === 'reconnecting' ? `reconnecting${seconds ? ` in ${seconds} s` : ''}` : host.state;
  return (
    <div className="host-block">
      <div className="host-row" title={host.problem?.message ?? ''}>
        <span className={`dot ${HOST_DOT[host.state]}`} aria-hidden />
        <span>{host.alias}</span>
        <span className="root-meta" role="status">
          {label}
        </span>
      </div>
      {host.unknownKey && (
        <div className="host-ask" role="alert">
          Unknown host key <code>{host.unknownKey}</code>. Check it with the server's admin before you trust it.
          <button onClick={() => void hosts.acceptHostKey(host.alias)}>Accept key</button>
        </div>
      )}
      {host.lockedKey && (
        <form
          className="host-ask"
          onSubmit={(e) => {
            e.preventDefault();
            void hosts.unlockHostKey(host.alias, host.lockedKey as string, passphrase);
            setPassphrase('');
          }}
        >
          Passphrase for <code>{host.lockedKey}</code> (kept in memory only)
          <input type="password" aria-label={`Passphrase for ${host.lockedKey}`} value={passphrase} onChange={(e) => setPassphrase(e.target.value)} />
          <button type="submit">Unlock</button>
        </form>
      )}
      {host.state === 'failed' && !host.unknownKey && !host.lockedKey && (
        <div className="host-ask tone-fail">
          {host.problem?.message} <button onClick={() => void hosts.reconnectHost(host.alias)}>Retry</button>
        </div>
      )}
    </div>
  );
}
