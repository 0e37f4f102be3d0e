import { useMemo, useState } from 'react'
import type { Proposal } from '../../api/types'

/** The board's search (name, calling or spouse), ward and kind, and the test a card must pass. */
export function useBoardFilter() {
  const [search, setSearch] = useState('')
  const [ward, setWard] = useState('')
  const [kind, setKind] = useState('')
  const matches = useMemo(() => {
    const q = search.trim().toLowerCase()
    return (p: Proposal) =>
      (!ward || p.ward_id === Number(ward)) &&
      (!kind || p.kind === kind) &&
      (!q ||
        `${p.fname} ${p.lname}`.toLowerCase().includes(q) ||
        p.proposed_calling.toLowerCase().includes(q) ||
        (p.spouse_name ?? '').toLowerCase().includes(q))
  }, [search, ward, kind])
  return {
    search,
    setSearch,
    ward,
    setWard,
    kind,
    setKind,
    matches,
    filtered: search.trim() !== '' || ward !== '' || kind !== '',
    clear() {
      setSearch('')
      setWard('')
      setKind('')
    },
  }
}
