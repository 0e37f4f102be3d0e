/**
 * No live credential crosses a stake export (docs/SECURITY.md "Exports"): the
 * tables that hold one are not exported at all (stakes.transfer.ts), and the
 * rows that are exported lose what could open something:
 *
 * - a mail's body (an invitation or a reset mail is its link; any other mail
 *   is a copy of facts the export carries anyway);
 * - a webhook's URL (a Slack or Discord address is itself a credential): the
 *   webhook is exported "to re-enter" and imported without an address, so it
 *   sends nothing until an administrator gives it one again (PUT /webhooks/{id});
 * - the URL an audit entry of a webhook remembers.
 *
 * The import applies the same rules to a file from an older version.
 */

type Row = Record<string, unknown>

/** Detail keys that may hold an address or a secret; dropped from audit entries at any depth. */
const SECRET_KEYS = new Set(['url', 'token', 'secret', 'endpoint', 'link'])

function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets)
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Row)
        .filter(([key]) => !SECRET_KEYS.has(key))
        .map(([key, v]) => [key, withoutSecrets(v)]),
    )
  }
  return value
}

const auditDetail = (row: Row): Row =>
  typeof row.detail === 'string' ? { ...row, detail: JSON.stringify(withoutSecrets(JSON.parse(row.detail))) } : row

/** One row as it may leave the deployment. */
const SCRUB: Record<string, (row: Row) => Row> = {
  mail_outbox: (row) => ({ ...row, text_body: '', html_body: '' }),
  webhooks: (row) => ({ ...row, url: '' }),
  audit_log: auditDetail,
}

export function scrubExported(table: string, row: Row): Row {
  return SCRUB[table]?.(row) ?? row
}

/** Work that would go out from an imported row: never sent (its body or address is gone). */
const NOT_SENT = 'not sent: imported from an export'

/** One imported row: scrubbed as an export is, and nothing of it waits to be sent. */
export function scrubImported(table: string, row: Row): Row {
  const out = scrubExported(table, row)
  if ((table === 'mail_outbox' || table === 'webhook_deliveries') && out.status === 'pending') {
    return { ...out, status: 'failed', last_error: NOT_SENT }
  }
  return out
}
