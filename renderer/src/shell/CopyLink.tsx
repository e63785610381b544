import { useState } from 'react';
import { useApp } from '../context';

/**
 * Copies the link of what the window shows now: in serve mode the address holds the token (in its path,
 * as the printed URL does) and the view (in its hash), so another browser of the user's opens the same
 * place. The desktop window has no address to give.
 */
export function CopyLink() {
  const serve = useApp((s) => s.info?.transport === 'serve');
  const [said, setSaid] = useState<string | null>(null);
  if (!serve) return null;
  const copy = () =>
    void navigator.clipboard?.writeText(window.location.href).then(
      () => setSaid('copied'),
      () => setSaid('could not copy: select the address instead'),
    );
  return (
    <button onClick={copy} onBlur={() => setSaid(null)} title="Copy a link to this view: it opens the same place in another browser on this machine (it carries the access token; share it as you would the printed URL)">
      {said ?? 'Copy link'}
    </button>
  );
}
