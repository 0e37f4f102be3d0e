import type { ReactNode } from 'react'

export interface Column<T> {
  label: string
  cell: (row: T) => ReactNode
}

/** A titled table (cards on a phone) of some of the preview's rows; nothing when there are none. */
export function ChangeTable<T extends { row: number | null }>({
  title,
  intro,
  rows,
  columns,
  testId,
}: {
  title: string
  intro?: string
  rows: T[]
  columns: Column<T>[]
  testId?: string
}) {
  if (rows.length === 0) return null
  return (
    <section className="stack import-section" aria-label={title} data-testid={testId}>
      <h3>
        {title} <span className="muted small">({rows.length})</span>
      </h3>
      {intro && <p className="muted">{intro}</p>}
      <div className="table-scroll table-scroll-cards">
        <table className="table table-cards compact">
          <thead>
            <tr>
              {columns.map((col) => (
                <th key={col.label} scope="col">
                  {col.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={`${r.row}-${i}`}>
                {columns.map((col, j) => (
                  <td key={col.label} className={j === 0 ? 'cell-title' : undefined} data-label={col.label}>
                    {col.cell(r)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
