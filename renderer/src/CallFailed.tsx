// A call that failed, shown where its data would be: the error's kind (as the core named it) and message.

/** How the window names the kinds of error the core sends; an unknown kind shows under its own name. */
const KINDS: Record<string, string> = {
  NotFoundError: 'not found',
  DispatchError: 'refused',
  HostUnavailableError: 'host unavailable',
  SlotError: 'bad slot',
  CompareError: 'cannot compare',
  FramesError: 'no frames',
  Error: 'failed',
};

export function kindOf(error: Error): string {
  return KINDS[error.name] ?? error.name;
}

export function CallFailed({ what, error }: { what: string; error: Error }) {
  return (
    <p className="call-failed tone-fail" role="alert" data-kind={error.name}>
      <strong>{what}: {kindOf(error)}</strong> · {error.message}
    </p>
  );
}
