import { useTranslation } from 'react-i18next'

/** Show / Hide for a board section that folds into a strip; `what` names the section for a screen reader. */
export function FoldToggle({
  open,
  onToggle,
  controls,
  what,
}: {
  open: boolean
  onToggle(open: boolean): void
  controls: string
  what: string
}) {
  const { t } = useTranslation('board')
  return (
    <button
      type="button"
      className="button-link small"
      aria-expanded={open}
      aria-controls={open ? controls : undefined}
      onClick={() => onToggle(!open)}
    >
      {open ? t('fold.hide') : t('fold.show')}
      <span className="visually-hidden"> {what}</span>
    </button>
  )
}
