import { lazy, type ComponentType } from 'react'
import { loadChunk } from './chunks'

type Module = { default: ComponentType }

const failedPages = new Set<() => void>()

/**
 * React.lazy keeps a failed load for good, so "Try again" could never
 * succeed. A lazyPage swaps in a fresh lazy component after a failure when
 * retryFailedPages() is called (the error boundary's "Try again").
 */
export function lazyPage(load: () => Promise<Module>): ComponentType {
  const make = () =>
    lazy(() =>
      loadChunk(load).catch((err: unknown) => {
        failedPages.add(reset)
        throw err
      }),
    )
  let Current = make()
  const reset = () => {
    Current = make()
  }
  return function LazyPage() {
    return <Current />
  }
}

export function retryFailedPages(): void {
  for (const reset of failedPages) reset()
  failedPages.clear()
}
