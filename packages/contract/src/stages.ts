/**
 * The stages of a calling proposal (docs/api-reference.md §7) and the paths through them.
 * Plain data with no schema library, so the web client can import it without
 * bundling TypeBox; the server and the schemas use the same lists.
 */
export const OPEN_STAGES = ['sp_approval', 'hc_approval', 'interview', 'sustain', 'set_apart', 'record'] as const
export const CLOSED_STAGES = ['done', 'declined'] as const
export const STAGES = [...OPEN_STAGES, ...CLOSED_STAGES] as const
export type OpenStage = (typeof OPEN_STAGES)[number]
export type ClosedStage = (typeof CLOSED_STAGES)[number]
export type Stage = (typeof STAGES)[number]

/** The stages where the stake presidency, then the high council, vote. */
export const VOTING_STAGES = ['sp_approval', 'hc_approval'] as const satisfies readonly OpenStage[]

/** A call's path to done. */
export const CALL_PATH = [
  'sp_approval',
  'hc_approval',
  'interview',
  'sustain',
  'set_apart',
  'record',
  'done',
] as const satisfies readonly Stage[]
/** A release's path: it needs no votes and nobody is set apart. */
export const RELEASE_PATH = ['interview', 'sustain', 'record', 'done'] as const satisfies readonly Stage[]

export const stagePath = (isRelease: boolean): readonly Stage[] => (isRelease ? RELEASE_PATH : CALL_PATH)

export const isClosedStage = (stage: Stage): stage is ClosedStage => (CLOSED_STAGES as readonly Stage[]).includes(stage)
export const isOpenStage = (stage: Stage): stage is OpenStage => !isClosedStage(stage)
export const isVotingStage = (stage: Stage): boolean => (VOTING_STAGES as readonly Stage[]).includes(stage)
