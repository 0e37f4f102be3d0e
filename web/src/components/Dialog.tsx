import * as RD from '@radix-ui/react-dialog'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

interface Props {
  open: boolean
  onOpenChange(open: boolean): void
  title: ReactNode
  description?: ReactNode
  children: ReactNode
  wide?: boolean
}

/** Radix dialog: focus trap, Escape to close, labelled by its title. */
export function Dialog({ open, onOpenChange, title, description, children, wide }: Props) {
  const { t } = useTranslation()
  return (
    <RD.Root open={open} onOpenChange={onOpenChange}>
      <RD.Portal>
        <RD.Overlay className="dialog-overlay" />
        <RD.Content className={`dialog ${wide ? 'dialog-wide' : ''}`}>
          <div className="dialog-head">
            <RD.Title className="dialog-title">{title}</RD.Title>
            <RD.Close className="icon-button" aria-label={t('close')}>
              ×
            </RD.Close>
          </div>
          {description ? (
            <RD.Description className="dialog-desc">{description}</RD.Description>
          ) : (
            <RD.Description className="visually-hidden">
              {typeof title === 'string' ? title : t('dialog')}
            </RD.Description>
          )}
          {children}
        </RD.Content>
      </RD.Portal>
    </RD.Root>
  )
}

interface ConfirmProps {
  open: boolean
  onOpenChange(open: boolean): void
  title: string
  message: ReactNode
  confirmLabel: string
  danger?: boolean
  busy?: boolean
  error?: ReactNode
  onConfirm(): void
}

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  message,
  confirmLabel,
  danger,
  busy,
  error,
  onConfirm,
}: ConfirmProps) {
  const { t } = useTranslation()
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} description={message}>
      {error}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={() => onOpenChange(false)}>
          {t('cancel')}
        </button>
        <button
          type="button"
          className={`button ${danger ? 'button-danger' : 'button-primary'}`}
          disabled={busy}
          onClick={onConfirm}
        >
          {busy ? t('working') : confirmLabel}
        </button>
      </div>
    </Dialog>
  )
}
