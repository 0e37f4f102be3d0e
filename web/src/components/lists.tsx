import { useState, type ReactNode } from 'react'
import { Pagination } from './Pagination'
import { Empty, ErrorMessage, Loading } from './ui'

/**
 * A list's four states in one place: loading, failed, empty (with the page's
 * words), or its items, which only then are handed to `children`.
 */
export function ListStates<T>({
  query,
  items,
  empty,
  loadingLabel,
  children,
}: {
  query: { isLoading: boolean; error: unknown }
  items: readonly T[] | undefined
  empty: ReactNode
  loadingLabel?: string
  children(items: readonly T[]): ReactNode
}) {
  return (
    <>
      {query.isLoading && <Loading label={loadingLabel} />}
      <ErrorMessage error={query.error} />
      {items && items.length === 0 && <Empty>{empty}</Empty>}
      {items && items.length > 0 && children(items)}
    </>
  )
}

/** A page of a longer list (`{ items, total }`), its states and the pager under it. */
export function PagedListStates<T>({
  query,
  empty,
  page,
  pageSize,
  onPage,
  children,
}: {
  query: { isLoading: boolean; error: unknown; data?: { items: T[]; total: number } }
  empty: ReactNode
  page: number
  pageSize: number
  onPage(page: number): void
  children(items: readonly T[]): ReactNode
}) {
  return (
    <ListStates query={query} items={query.data?.items} empty={empty}>
      {(items) => (
        <>
          {children(items)}
          <Pagination page={page} pageSize={pageSize} total={query.data?.total ?? 0} onPage={onPage} />
        </>
      )}
    </ListStates>
  )
}

interface TableProps {
  /** The column headings, in order. */
  columns: ReactNode[]
  /** A last column of row buttons, named for screen readers only. */
  actionsLabel?: string
  className?: string
  testId?: string
  children: ReactNode
}

/** A table with a heading row of column names and the rows given as children. */
export function DataTable({ columns, actionsLabel, className = 'table', testId, children }: TableProps) {
  return (
    <table className={className} data-testid={testId}>
      <thead>
        <tr>
          {columns.map((label, i) => (
            <th key={i} scope="col">
              {label}
            </th>
          ))}
          {actionsLabel && (
            <th scope="col">
              <span className="visually-hidden">{actionsLabel}</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  )
}

/** A table that scrolls sideways on a wide screen and turns into one card a row on a phone. */
export function CardTable(props: Omit<TableProps, 'className'>) {
  return (
    <div className="table-scroll table-scroll-cards">
      <DataTable {...props} className="table table-cards" />
    </div>
  )
}

/** A labelled control of a filter bar (the control carries the `id`). */
export function FilterField({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="field field-inline">
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  )
}

/** A filter's choice: the first option ("all") clears it. */
export function FilterSelect({
  id,
  label,
  value,
  onChange,
  options,
}: {
  id: string
  label: string
  value: string
  onChange(value: string): void
  /** `[value, label]` pairs; the first is the empty "all" choice. */
  options: readonly (readonly [string, string])[]
}) {
  return (
    <FilterField id={id} label={label}>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </FilterField>
  )
}

/**
 * A list's filter bar with a text search that applies on submit (the other
 * filters, given as children, apply as they change).
 */
export function SearchFilters({
  id,
  query,
  label,
  placeholder,
  submitLabel,
  onSearch,
  children,
}: {
  id: string
  query: string
  label: string
  placeholder: string
  submitLabel: string
  onSearch(q: string): void
  children?: ReactNode
}) {
  const [search, setSearch] = useState(query)
  return (
    <form
      className="filters"
      role="search"
      onSubmit={(e) => {
        e.preventDefault()
        onSearch(search.trim())
      }}
    >
      <FilterField id={id} label={label}>
        <input
          id={id}
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder={placeholder}
        />
      </FilterField>
      {children}
      <button type="submit" className="button">
        {submitLabel}
      </button>
    </form>
  )
}
