import { useState } from 'react'
import { useSpeakingFeed, webcalUrl } from '../../api/feed'
import { ConfirmDialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, Field } from '../../components/ui'

/** Profile → Calendar: a private address for the speaking schedule in the user's own calendar app. */
export function CalendarFeed() {
  const { url, create, revoke } = useSpeakingFeed()
  const notify = useNotify()
  const [confirmRevoke, setConfirmRevoke] = useState(false)
  const [revoked, setRevoked] = useState(false)
  return (
    <section className="card" aria-labelledby="calendar-h">
      <h2 id="calendar-h">Calendar</h2>
      <p className="muted">
        Subscribe to your speaking assignments from your phone or computer calendar. The address is private: anyone who
        has it can read the schedule. It is shown only once; a new one replaces it.
      </p>
      <ErrorMessage error={create.error ?? revoke.error} />
      {url && (
        <div className="stack">
          <Field
            label="Your calendar address"
            hint="Paste it into your calendar app as a subscription, or use Subscribe."
          >
            <input readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
          </Field>
          <div className="button-row">
            <a className="button button-primary" href={webcalUrl(url)}>
              Subscribe
            </a>
            <button
              type="button"
              className="button"
              onClick={() =>
                void navigator.clipboard?.writeText(url).then(
                  () => notify('Address copied.', 'success'),
                  () => notify('Copy the address from the box above.', 'error'),
                )
              }
            >
              Copy address
            </button>
          </div>
        </div>
      )}
      {revoked && !url && <p role="status">Your calendar address no longer works.</p>}
      <div className="button-row">
        <button
          type="button"
          className="button"
          disabled={create.isPending}
          onClick={() => {
            setRevoked(false)
            create.mutate()
          }}
        >
          {create.isPending ? 'Working…' : url ? 'Replace address' : 'Create calendar address'}
        </button>
        <button type="button" className="button button-danger" onClick={() => setConfirmRevoke(true)}>
          Revoke address
        </button>
      </div>
      <ConfirmDialog
        open={confirmRevoke}
        onOpenChange={setConfirmRevoke}
        title="Revoke the calendar address?"
        message="Calendars subscribed to it stop receiving your speaking schedule."
        confirmLabel="Revoke address"
        danger
        busy={revoke.isPending}
        onConfirm={() =>
          revoke.mutate(undefined, {
            onSuccess: () => {
              setConfirmRevoke(false)
              setRevoked(true)
            },
          })
        }
      />
    </section>
  )
}
