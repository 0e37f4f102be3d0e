import { Component, type ErrorInfo, type ReactNode } from 'react'
import { useLocation } from 'react-router'
import { useTranslation } from 'react-i18next'
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

/** What happened, in plain words (common `failure.*` keys). */
function explain(error: unknown): { title: string; text: string } {
  if (error instanceof ChunkLoadError) {
    return error.newVersion
      ? { title: 'failure.newVersionTitle', text: 'failure.newVersionText' }
      : { title: 'failure.chunkTitle', text: 'failure.chunkText' }
  }
  return { title: 'failure.title', text: 'failure.text' }
}

function FailurePanel({ error, scope, onRetry }: { error: unknown; scope: Props['scope']; onRetry(): void }) {
  const { t } = useTranslation()
  const { title, text } = explain(error)
  const detail = error instanceof Error ? error.message : String(error)
  const panel = (
    <div className="card error-panel" role="alert">
      <h1>{t(title)}</h1>
      <p>{t(text)}</p>
      <div className="error-actions">
        <button type="button" className="button button-primary" onClick={onRetry}>
          {t('failure.tryAgain')}
        </button>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {t('failure.reload')}
        </button>
        {scope === 'app' && (
          <a className="button" href="/">
            {t('page.goStart')}
          </a>
        )}
      </div>
      {detail && (
        <details className="error-detail">
          <summary>{t('failure.details')}</summary>
          <code>{detail}</code>
        </details>
      )}
    </div>
  )
  return scope === 'app' ? <div className="boot">{panel}</div> : panel
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
    return <FailurePanel error={error} scope={this.props.scope} onRetry={this.retry} />
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
