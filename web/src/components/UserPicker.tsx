import { useMemo, useState } from 'react'
import { useCombobox } from 'downshift'
import { useTranslation } from 'react-i18next'
import type { User } from '../api/types'
import { useUsersLite } from '../api/users'

interface Props {
  label: string
  value: number | null
  onChange(id: number | null): void
  error?: string
  /** Ids that may not be chosen (e.g. people already in the calling). */
  exclude?: number[]
  allowClear?: boolean
  id?: string
}

const name = (u: User | null | undefined) => (u ? `${u.fname} ${u.lname}` : '')

/** Searchable person picker (downshift combobox: arrow keys, Enter, Escape). */
export function UserPicker({ label, value, onChange, error, exclude = [], allowClear, id }: Props) {
  const { t } = useTranslation()
  const users = useUsersLite()
  const [input, setInput] = useState('')
  const selected = useMemo(() => users.data?.find((u) => u.id === value) ?? null, [users.data, value])
  // A selection changed from outside resets the text box, adjusted during
  // render (React's pattern for state derived from a changed prop), not in an effect.
  const [inputFor, setInputFor] = useState<User | null | undefined>(undefined)
  if (inputFor !== selected) {
    setInputFor(selected)
    setInput(name(selected))
  }
  const items = useMemo(() => {
    const q = input.trim().toLowerCase()
    return (users.data ?? [])
      .filter((u) => u.active !== false && !exclude.includes(u.id))
      .filter((u) => !q || name(u).toLowerCase().includes(q) || (u.email ?? '').toLowerCase().includes(q))
      .slice(0, 50)
  }, [users.data, input, exclude])

  const cb = useCombobox<User>({
    id,
    items,
    selectedItem: selected,
    itemToString: name,
    inputValue: input,
    onInputValueChange: ({ inputValue }) => setInput(inputValue ?? ''),
    onSelectedItemChange: ({ selectedItem }) => onChange(selectedItem ? selectedItem.id : null),
    onIsOpenChange: ({ isOpen }) => {
      if (!isOpen) setInput(name(selected))
    },
  })

  const errId = `${cb.getInputProps().id}-error`
  return (
    <div className={`field combobox ${error ? 'field-invalid' : ''}`}>
      <label {...cb.getLabelProps()}>{label}</label>
      <div className="combobox-row">
        <input
          {...cb.getInputProps({
            placeholder: users.isLoading ? t('picker.loading') : t('picker.placeholder'),
            'aria-invalid': error ? true : undefined,
            'aria-describedby': error ? errId : undefined,
            onFocus: () => {
              if (!cb.isOpen) cb.openMenu()
            },
          })}
        />
        {allowClear && value != null && (
          <button
            type="button"
            className="button button-small"
            onClick={() => {
              cb.reset()
              setInput('')
              onChange(null)
            }}
          >
            {t('picker.clear')}
          </button>
        )}
      </div>
      <ul {...cb.getMenuProps()} className={`combobox-menu ${cb.isOpen ? 'open' : ''}`}>
        {cb.isOpen &&
          items.map((u, index) => (
            <li
              key={u.id}
              {...cb.getItemProps({ item: u, index })}
              className={`combobox-item ${cb.highlightedIndex === index ? 'highlighted' : ''}`}
            >
              {name(u)}
              {u.email && <span className="muted small"> · {u.email}</span>}
            </li>
          ))}
        {cb.isOpen && items.length === 0 && <li className="combobox-empty">{t('picker.noMatch')}</li>}
      </ul>
      {error && (
        <small id={errId} className="field-error" role="alert">
          {error}
        </small>
      )}
    </div>
  )
}
