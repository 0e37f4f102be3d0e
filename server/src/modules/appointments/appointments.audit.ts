import type { AuditDetail, AuditTarget, Who } from '../../events/types.ts'

/** Who acts through a booking link: nobody signed in, named as the link in the audit log (S20). */
export const BOOKING_LINK = (at: string): Who => ({ by: null, anonymous: 'booking_link', at })

/** An appointment's entries name its booking link (the offer): bookings come and go, the link stays. */
export const appointmentTarget = (offerId: number): AuditTarget => ({ type: 'appointment', id: offerId })

/**
 * The plain facts of a booking link. The person's name only for an interview
 * that is not a proposal's: the audit log's readers (users.manage) may not
 * see a proposal at the presidency's stage (S9, S14), so a proposal's
 * interview is named by the proposal's id alone.
 */
export function offerFacts(offer: {
  kind: string
  proposal_id: number | null
  person_name: string
  interviewer_id: number | null
  duration_minutes: number
}): AuditDetail {
  return {
    kind: offer.kind,
    proposal_id: offer.proposal_id,
    name: offer.proposal_id === null ? offer.person_name : null,
    interviewer_id: offer.interviewer_id,
    duration_minutes: offer.duration_minutes,
  }
}
