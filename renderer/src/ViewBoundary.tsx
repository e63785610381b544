import { Component, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

/** One view's failure shown in its place, with a way to try again: one panel never blanks the app. */
export class ViewBoundary extends Component<{ name: string; children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <section className="view-failed" role="alert" aria-label={`${this.props.name} failed`}>
        <p>
          <strong>{this.props.name} stopped working:</strong> {error.message}
        </p>
        <button onClick={() => this.setState({ error: null })}>Try again</button>
      </section>
    );
  }
}
