import { useApp } from '../context';

/** Above the list while the built-in demo is listed: what it is, and how to watch one's own runs instead. */
export function DemoNote() {
  const demo = useApp((s) => s.roots.find((r) => r.source === 'demo'));
  const selectedRoot = useApp((s) => s.selectedRoot);
  if (!demo || (selectedRoot !== null && selectedRoot !== demo.path)) return null;
  return (
    <p className="demo-note" role="note">
      <strong>The built-in demo.</strong> A simulated cart-pole task and a scripted agent, written live as the real runners write
      their run directories (bigym-agent, coding-agent on a small board, evopolicygym, NeMo Gym), so every view has something to
      show. Add your own runs root in the sidebar (a folder here, or <code>gpu1:/path</code> on an SSH host); remove the demo with its ×.
    </p>
  );
}
