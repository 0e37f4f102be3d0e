import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/client'
import {
  passkeysSupported,
  useAddPasskey,
  usePasskeys,
  useRemovePasskey,
  useRenamePasskey,
  type Passkey,
} from '../../api/accounts'
import { ConfirmDialog, Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, Field, formatDateTime, Loading } from '../../components/ui'

/** Profile → Passkeys (docs/api-reference.md §16): add one on this device, rename, remove. */
export function Passkeys() {
  const { t } = useTranslation('accounts')
  const notify = useNotify()
  const list = usePasskeys()
  const [renaming, setRenaming] = useState<Passkey | null>(null)
  const [removing, setRemoving] = useState<Passkey | null>(null)
  const remove = useRemovePasskey({
    onSuccess: () => {
      setRemoving(null)
      notify(t('passkeys.removed'), 'success')
    },
  })

  return (
    <section className="card" aria-labelledby="passkeys-h">
      <h2 id="passkeys-h">{t('passkeys.title')}</h2>
      <p className="muted">{t('passkeys.intro')}</p>
      <ErrorMessage error={list.error} />
      {list.isPending && <Loading />}
      {list.data && list.data.length === 0 && <p>{t('passkeys.none')}</p>}
      {list.data && list.data.length > 0 && (
        <ul className="plain-list" aria-label={t('passkeys.title')}>
          {list.data.map((p) => (
            <li key={p.id} className="passkey-row" data-testid="passkey">
              <div>
                <strong>{p.name}</strong>
                <div className="muted small">
                  {t('passkeys.added_on', { date: formatDateTime(p.created_at) })} ·{' '}
                  {p.last_used_at
                    ? t('passkeys.lastUsed', { date: formatDateTime(p.last_used_at) })
                    : t('passkeys.neverUsed')}
                </div>
              </div>
              <div className="button-row" role="group" aria-label={t('passkeys.actionsFor', { name: p.name })}>
                <button type="button" className="button button-small" onClick={() => setRenaming(p)}>
                  {t('passkeys.rename')}
                </button>
                <button
                  type="button"
                  className="button button-small button-danger"
                  onClick={() => {
                    remove.reset()
                    setRemoving(p)
                  }}
                >
                  {t('passkeys.remove')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <AddPasskey />
      <Dialog open={renaming !== null} onOpenChange={(o) => !o && setRenaming(null)} title={t('passkeys.renameTitle')}>
        {renaming && <RenameForm key={renaming.id} passkey={renaming} onClose={() => setRenaming(null)} />}
      </Dialog>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(o) => !o && setRemoving(null)}
        title={t('passkeys.removeTitle')}
        message={t('passkeys.removeText', { name: removing?.name ?? '' })}
        confirmLabel={t('passkeys.remove')}
        danger
        busy={remove.isPending}
        error={<ErrorMessage error={remove.error} />}
        onConfirm={() => removing && remove.mutate(removing)}
      />
    </section>
  )
}

/** Adds a passkey on this device, or says why it cannot (no support, cancelled, refused). */
function AddPasskey() {
  const { t } = useTranslation('accounts')
  const notify = useNotify()
  const [failure, setFailure] = useState<string | null>(null)
  const add = useAddPasskey({
    onSuccess: () => notify(t('passkeys.added'), 'success'),
    onError: (err) => {
      const cancelled = err.name === 'NotAllowedError' || err.name === 'AbortError'
      setFailure(cancelled ? t('passkeys.cancelled') : err instanceof ApiError ? err.message : t('passkeys.failed'))
    },
  })
  return (
    <>
      {failure && (
        <p className="error-box" role="alert">
          {failure}
        </p>
      )}
      {passkeysSupported() ? (
        <div className="button-row">
          <button
            type="button"
            className="button button-primary"
            disabled={add.isPending}
            onClick={() => {
              setFailure(null)
              add.mutate(undefined)
            }}
          >
            {add.isPending ? t('passkeys.adding') : t('passkeys.add')}
          </button>
        </div>
      ) : (
        <p className="muted">{t('passkeys.unsupported')}</p>
      )}
    </>
  )
}

/** Keyed by the passkey: each opening starts from its name, without the last one's error. */
function RenameForm({ passkey, onClose }: { passkey: Passkey; onClose(): void }) {
  const { t } = useTranslation('accounts')
  const notify = useNotify()
  const [name, setName] = useState(passkey.name)
  const rename = useRenamePasskey({
    onSuccess: () => {
      onClose()
      notify(t('passkeys.renamed'), 'success')
    },
  })
  function onRename(e: FormEvent) {
    e.preventDefault()
    if (name.trim()) rename.mutate({ id: passkey.id, name: name.trim() })
  }
  return (
    <form onSubmit={onRename} className="stack" noValidate>
      <ErrorMessage error={rename.error} />
      <Field label={t('passkeys.name')}>
        <input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} autoFocus />
      </Field>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          {t('passkeys.cancel')}
        </button>
        <button type="submit" className="button button-primary" disabled={rename.isPending || !name.trim()}>
          {t('passkeys.save')}
        </button>
      </div>
    </form>
  )
}
