// Comparison slots: `<session>:<version>`, where version is vNNN, NNN, last or submission.

export const MAX_SLOTS = 6;

export type SlotVersion = { kind: 'version'; version: string } | { kind: 'last' } | { kind: 'submission' };

export interface SlotSpec {
  text: string;
  session: string;
  version: SlotVersion;
}

export function parseVersion(text: string): SlotVersion | null {
  if (text === 'last' || text === 'submission') return { kind: text };
  const match = /^v?(\d{1,3})$/.exec(text);
  return match ? { kind: 'version', version: `v${(match[1] as string).padStart(3, '0')}` } : null;
}

/** Parses "s1:v008,s2:last"; throws naming the slot that is wrong. */
export function parseSlots(text: string): SlotSpec[] {
  const parts = text.split(',').map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0) throw new Error('name at least one slot, as session:version (s1:v008,s2:last)');
  if (parts.length > MAX_SLOTS) throw new Error(`at most ${MAX_SLOTS} slots, not ${parts.length}`);
  return parts.map((part) => {
    const at = part.lastIndexOf(':');
    const session = part.slice(0, at).trim();
    const version = at > 0 ? parseVersion(part.slice(at + 1).trim()) : null;
    if (!session || !version) throw new Error(`slot ${JSON.stringify(part)} is not session:version (version vNNN, NNN, last or submission)`);
    return { text: part, session, version };
  });
}
