import { Component, type ErrorInfo, type ReactNode } from 'react'
import { useLocation } from 'react-router'
import { ChunkLoadError } from './chunks'
import { retryFailedPages } from './lazyPage'
import { reportError } from './report'

interface Props {
  children: ReactNode
  /** The error is cleared when this changes (the route's path). */
  resetKey?: string
  /** 'app' for the outermost boundary, which has no navigation around it. */
  scope: 'page' | 'app'
}

interface State {
  error: unknown
}

/** What happened, in plain words. */
function explain(error: unknown): { title: string; text: string } {
  if (error instanceof ChunkLoadError) {
    return error.newVersion
      ? {
          title: 'A new version of the app is available',
          text: 'This page changed in an update that was installed while the app was open. Reload to get the new version.',
        }
      : {
          title: 'This page could not be loaded',
          text: 'Part of the app could not be downloaded, probably because the connection dropped for a moment. Check your connection, then try again.',
        }
  }
  return {
    title: 'Something went wrong on this page',
    text: 'An unexpected error stopped this page from showing. Try again, or reload the app. You can also go to another page from the menu.',
  }
}

/**
 * Catches what a screen throws while rendering (including a page whose code
 * could not be loaded), shows it with "Try again" and "Reload", and reports
 * it to the server's log. Around each route the app's navigation stays usable;
 * the outermost one catches anything else.
 */
export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null }

  static getDerivedStateFromError(error: unknown): State {
    return { error: error ?? new Error('Unknown error') }
  }

  componentDidCatch(error: unknown, _info: ErrorInfo): void {
    reportError(error, window.location.pathname)
  }

  componentDidUpdate(prev: Props): void {
    if (this.state.error && prev.resetKey !== this.props.resetKey) this.setState({ error: null })
  }

  private retry = () => {
    retryFailedPages()
    this.setState({ error: null })
  }

  render() {
    const { error } = this.state
    if (!error) return this.props.children
    const { title, text } = explain(error)
    const detail = error instanceof Error ? error.message : String(error)
    const panel = (
      <div className="card error-panel" role="alert">
        <h1>{title}</h1>
        <p>{text}</p>
        <div className="error-actions">
          <button type="button" className="button button-primary" onClick={this.retry}>
            Try again
          </button>
          <button type="button" className="button" onClick={() => window.location.reload()}>
            Reload
          </button>
          {this.props.scope === 'app' && (
            <a className="button" href="/">
              Go to the start page
            </a>
          )}
        </div>
        {detail && (
          <details className="error-detail">
            <summary>Technical details</summary>
            <code>{detail}</code>
          </details>
        )}
      </div>
    )
    return this.props.scope === 'app' ? <div className="boot">{panel}</div> : panel
  }
}

/** A boundary for one route: cleared when the user goes to another page. */
export function RouteBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation()
  return (
    <ErrorBoundary scope="page" resetKey={pathname}>
      {children}
    </ErrorBoundary>
  )
}
