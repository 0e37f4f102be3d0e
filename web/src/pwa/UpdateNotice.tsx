import { Suspense, useSyncExternalStore } from 'react'
import { subscribeToUpdate, waitingUpdate } from './updates'
import UpdatePrompt from './UpdatePrompt'

/** "A new version is available — Reload": rendered (and its texts loaded) only when one waits. */
export function UpdateNotice() {
  const apply = useSyncExternalStore(subscribeToUpdate, waitingUpdate, () => null)
  if (!apply) return null
  return (
    <Suspense fallback={null}>
      <UpdatePrompt onReload={apply} />
    </Suspense>
  )
}
