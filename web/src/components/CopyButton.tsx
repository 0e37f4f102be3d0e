import { useNotify } from './Notice'

/**
 * A button that copies `text` (a link to hand out) and says so with `copied`;
 * when the browser refuses, `failed` says what to do instead (or nothing).
 */
export function CopyButton({
  text,
  label,
  copied,
  failed,
  className = 'button',
}: {
  text: string
  label: string
  copied: string
  failed?: string
  className?: string
}) {
  const notify = useNotify()
  return (
    <button
      type="button"
      className={className}
      onClick={() =>
        void navigator.clipboard?.writeText(text).then(
          () => notify(copied, 'success'),
          () => failed && notify(failed, 'error'),
        )
      }
    >
      {label}
    </button>
  )
}
