import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useOpenScript, usePresent } from '../../api/sustainings'
import type { Proposal } from '../../api/types'
import { ConfirmDialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'

type ScriptLanguage = 'en' | 'es'

/** The printable script of the ward's Sunday, in the language it will be read in. */
export function ScriptActions({ wardId }: { wardId: number }) {
  const { t, i18n } = useTranslation('sustainings')
  const notify = useNotify()
  const openScript = useOpenScript()
  const [scriptLang, setScriptLang] = useState<ScriptLanguage>(i18n.language === 'es' ? 'es' : 'en')
  return (
    <>
      <label className="field field-inline">
        <span>{t('page.scriptLanguage')}</span>
        <select value={scriptLang} onChange={(e) => setScriptLang(e.target.value as ScriptLanguage)}>
          <option value="en">English</option>
          <option value="es">Español</option>
        </select>
      </label>
      <button
        type="button"
        className="button"
        disabled={openScript.isPending}
        onClick={() =>
          openScript.mutate({ wardId, lang: scriptLang }, { onError: (e) => notify((e as Error).message, 'error') })
        }
      >
        {t('page.print')}
      </button>
    </>
  )
}

/** Asks before recording that a proposal was presented in the ward. */
export function PresentDialog({
  proposal,
  wardId,
  wardName,
  onClose,
}: {
  proposal: Proposal | null
  wardId: number | null
  wardName: string
  onClose(): void
}) {
  const { t } = useTranslation('sustainings')
  const notify = useNotify()
  const present = usePresent()
  return (
    <ConfirmDialog
      open={proposal !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t('page.confirmTitle')}
      message={
        proposal
          ? t('page.confirmMessage', {
              name: `${proposal.fname} ${proposal.lname}`,
              calling: proposal.proposed_calling,
              ward: wardName,
            })
          : ''
      }
      confirmLabel={t('page.markPresented')}
      busy={present.isPending}
      onConfirm={() => {
        if (!proposal || wardId === null) return
        present.mutate(
          { proposalId: proposal.id, wardId },
          {
            onSuccess: () => {
              notify(t('page.presented'), 'success')
              onClose()
            },
            onError: (e) => {
              notify((e as Error).message, 'error')
              onClose()
            },
          },
        )
      }}
    />
  )
}
