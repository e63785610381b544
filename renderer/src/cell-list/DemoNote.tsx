import { useApp } from '../context';

/** Above the list while the built-in demo is listed: what it is, and how to watch one's own runs instead. */
export function DemoNote() {
  const demo = useApp((s) => s.roots.find((r) => r.source === 'demo'));
  const selectedRoot = useApp((s) => s.selectedRoot);
  const contents = useApp((s) => s.info?.demoContents);
  if (!demo || (selectedRoot !== null && selectedRoot !== demo.path)) return null;
  return (
    <p className="demo-note" role="note">
      <strong>The built-in demo</strong>
      {contents ? `: ${contents},` : ','} written live as the real runners write their run directories, so every view has something
      to show. Add your own runs root in the sidebar (a folder here, or <code>gpu1:/path</code> on an SSH host); remove the demo with its ×.
    </p>
  );
}
