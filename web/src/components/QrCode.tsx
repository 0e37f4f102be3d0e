import { useMemo } from 'react'
import { create } from 'qrcode'

/** Modules of white border around the symbol (the QR specification asks for 4). */
const QUIET_ZONE = 4

/**
 * A QR code drawn here, as SVG, from the `qrcode` package's matrix: the text
 * (a private calendar address) never leaves the browser for a QR service.
 */
export function QrCode({ text, label, className }: { text: string; label: string; className?: string }) {
  const { size, path } = useMemo(() => {
    const { modules } = create(text, { errorCorrectionLevel: 'M' })
    let d = ''
    for (let row = 0; row < modules.size; row++) {
      for (let col = 0; col < modules.size; col++) {
        if (modules.get(row, col)) d += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`
      }
    }
    return { size: modules.size + 2 * QUIET_ZONE, path: d }
  }, [text])
  return (
    <svg
      className={className}
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
      data-qr-text={text}
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  )
}
