import { useState } from 'react'
import { useTranslation } from 'react-i18next'

/** The users page's search: a name or email, and the status. */
export function UserFilters({
  q,
  active,
  update,
}: {
  q: string
  active: string
  update(values: Record<string, string>): void
}) {
  const { t } = useTranslation('users')
  const [search, setSearch] = useState(q)
  return (
    <form
      className="filters"
      role="search"
      onSubmit={(e) => {
        e.preventDefault()
        update({ q: search.trim() })
      }}
    >
      <div className="field field-inline">
        <label htmlFor="users-q">{t('search.label')}</label>
        <input
          id="users-q"
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder={t('search.placeholder')}
        />
      </div>
      <div className="field field-inline">
        <label htmlFor="users-active">{t('search.status')}</label>
        <select id="users-active" value={active} onChange={(e) => update({ active: e.target.value })}>
          <option value="">{t('search.all')}</option>
          <option value="yes">{t('search.active')}</option>
          <option value="no">{t('search.inactive')}</option>
        </select>
      </div>
      <button type="submit" className="button">
        {t('search.submit')}
      </button>
    </form>
  )
}
