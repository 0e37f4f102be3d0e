import { lazy, Suspense } from 'react'
import { useWaitingUpdate } from './updates'

const UpdatePrompt = lazy(() => import('./UpdatePrompt'))

/** "A new version is available — Reload": rendered (and its code and texts loaded) only when one waits. */
export function UpdateNotice() {
  const apply = useWaitingUpdate()
  if (!apply) return null
  return (
    <Suspense fallback={null}>
      <UpdatePrompt onReload={apply} />
    </Suspense>
  )
}
