// An error shown where what failed would be: its kind's words (shared/errors.ts), its message, and on
// hover what to do about it.
import { kindOf } from '../../shared/errors';

export function CallFailed({ what, error, className = 'call-failed tone-fail' }: { what: string; error: Error; className?: string }) {
  const kind = kindOf(error);
  return (
    <p className={className} role="alert" data-kind={error.name} title={kind.tip ?? undefined}>
      <strong>
        {what}: {kind.label}
      </strong>{' '}
      · {error.message}
    </p>
  );
}
