import { useState, type FormEvent } from 'react';
import { useApp } from '../context';

/** A path field (every window) and, in Electron, the native folder picker. */
export function AddRoot({ compact = false }: { compact?: boolean }) {
  const addRoot = useApp((s) => s.addRoot);
  const pickAndAddRoot = useApp((s) => s.pickAndAddRoot);
  const canPickFolder = useApp((s) => s.info?.canPickFolder ?? false);
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!path.trim()) return;
    setBusy(true);
    if (await addRoot(path)) setPath('');
    setBusy(false);
  }

  return (
    <form className={`add-root${compact ? ' compact' : ''}`} onSubmit={(e) => void submit(e)} aria-label="Add a runs root">
      <input
        type="text"
        value={path}
        onChange={(e) => setPath(e.target.value)}
        placeholder={compact ? '/path or host:/path' : '/path/to/runs or gpu1:/data/runs'}
        title="A runs root here (/path/to/runs) or on an SSH host of ~/.ssh/config (gpu1:/data/runs)"
        aria-label="Runs root path"
        spellCheck={false}
      />
      <button type="submit" disabled={busy || !path.trim()}>
        {busy ? 'Scanning…' : 'Add root'}
      </button>
      {canPickFolder && (
        <button type="button" onClick={() => void pickAndAddRoot()}>
          Choose folder…
        </button>
      )}
    </form>
  );
}
