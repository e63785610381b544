import { describe, expect, it } from 'vitest';
import { cellId, formatAddress, parseAddress } from './address';

describe('an address', () => {
  it('names an SSH host as ALIAS:/path or ssh://ALIAS/path, and anything else a path here', () => {
    expect(parseAddress('ssh://gpu1/data/jobs')).toEqual({ host: 'gpu1', path: '/data/jobs' });
    expect(parseAddress('me@gpu1:/data/jobs')).toEqual({ host: 'me@gpu1', path: '/data/jobs' });
    expect(parseAddress('/data/jobs')).toEqual({ host: 'local', path: '/data/jobs' });
    // A colon that is not ALIAS:/ stays in a path here (a relative path, a Windows drive).
    expect(parseAddress('runs:2026')).toEqual({ host: 'local', path: 'runs:2026' });
    expect(parseAddress('C:\\runs')).toEqual({ host: 'local', path: 'C:\\runs' });
  });

  it('is written back as it is read; a cell id names this machine too', () => {
    for (const text of ['gpu1:/data/jobs', '/data/jobs']) expect(formatAddress(parseAddress(text))).toBe(text);
    expect(cellId('local', '/data/jobs/std_a')).toBe('local:/data/jobs/std_a');
  });
});
