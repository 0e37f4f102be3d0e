import { useState } from 'react'
import { splitError, type FieldErrors } from './ui'

/**
 * The state every form keeps the same way: field errors, the general error
 * (role="alert" above the form), and busy while the request is out. `check`
 * shows the client's own checks and says whether to go on; `run` sends, and
 * spreads a refusal over the named fields (the rest is the general error).
 * `handle` may take a refusal first (a wrong password under its own field):
 * it returns true when it did.
 */
export function useFormState() {
  const [errors, setErrors] = useState<FieldErrors>({})
  const [general, setGeneral] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  function check(found: FieldErrors): boolean {
    setErrors(found)
    setGeneral(null)
    return Object.keys(found).length === 0
  }

  async function run(fields: string[], fn: () => Promise<void>, handle?: (err: unknown) => boolean) {
    setGeneral(null)
    setBusy(true)
    try {
      await fn()
    } catch (err) {
      if (handle?.(err)) return
      const s = splitError(err, fields)
      setErrors(s.fields)
      setGeneral(s.general)
    } finally {
      setBusy(false)
    }
  }

  return { errors, setErrors, general, busy, check, run }
}
