import { useTranslation } from 'react-i18next'
import { Field } from '../../components/ui'

/** An interview's length, 15 to 60 minutes (the booking link's `duration_minutes`). */
export function DurationField({ value, onChange }: { value: string; onChange(value: string): void }) {
  const { t } = useTranslation('interviews')
  return (
    <Field label={t('duration')}>
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {['15', '30', '45', '60'].map((m) => (
          <option key={m} value={m}>
            {t('minutes', { count: Number(m) })}
          </option>
        ))}
      </select>
    </Field>
  )
}
