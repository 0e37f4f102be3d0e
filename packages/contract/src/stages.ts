/**
 * The stages of a calling proposal (docs/api-reference.md §7) and the paths through them.
 * Plain data with no schema library, so the web client can import it without
 * bundling TypeBox; the server and the schemas use the same lists.
 */
export const OPEN_STAGES = [
  'sp_approval',
  'hc_approval',
  'interview',
  'sustain',
  'set_apart',
  'ordain',
  'record',
] as const
export const CLOSED_STAGES = ['done', 'declined'] as const
export const STAGES = [...OPEN_STAGES, ...CLOSED_STAGES] as const
export type OpenStage = (typeof OPEN_STAGES)[number]
export type ClosedStage = (typeof CLOSED_STAGES)[number]
export type Stage = (typeof STAGES)[number]

/** The stages where the stake presidency, then the high council, vote. */
export const VOTING_STAGES = ['sp_approval', 'hc_approval'] as const satisfies readonly OpenStage[]

/**
 * What a proposal is (docs/api-reference.md §18): a call (the default), a
 * release (the same as `is_release: true`) or a Melchizedek Priesthood
 * ordination (with an `office`).
 */
export const PROPOSAL_KINDS = ['call', 'release', 'ordination'] as const
export type ProposalKind = (typeof PROPOSAL_KINDS)[number]

/** The offices an ordination confers. */
export const OFFICES = ['elder', 'high_priest'] as const
export type Office = (typeof OFFICES)[number]

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
/**
 * An ordination's path (docs/api-reference.md §18): the presidency approves,
 * one of them interviews, then the high council approves; `ordain` takes the
 * place of `set_apart`.
 */
export const ORDINATION_PATH = [
  'sp_approval',
  'interview',
  'hc_approval',
  'sustain',
  'ordain',
  'record',
  'done',
] as const satisfies readonly Stage[]

export const PATHS: Readonly<Record<ProposalKind, readonly Stage[]>> = {
  call: CALL_PATH,
  release: RELEASE_PATH,
  ordination: ORDINATION_PATH,
}

/** A proposal's kind from its fields; rows written before kinds existed read back as call or release. */
export const kindOf = (p: { kind?: string | null; is_release?: boolean | number | null }): ProposalKind =>
  p.kind === 'ordination' || p.kind === 'release' || p.kind === 'call' ? p.kind : p.is_release ? 'release' : 'call'

/** A proposal's own path; `true`/`false` are release/call (the older `is_release` flag). */
export const stagePath = (kind: ProposalKind | boolean): readonly Stage[] =>
  PATHS[typeof kind === 'boolean' ? (kind ? 'release' : 'call') : kind]

/**
 * Stages that only the stake presidency (besides the submitter, the ward's
 * bishop and managers) sees (S9): `sp_approval`, and an ordination's
 * interview, which comes before the high council's vote.
 */
export const presidencyStages = (kind: ProposalKind): readonly Stage[] =>
  kind === 'ordination' ? ['sp_approval', 'interview'] : ['sp_approval']

export const isClosedStage = (stage: Stage): stage is ClosedStage => (CLOSED_STAGES as readonly Stage[]).includes(stage)
export const isOpenStage = (stage: Stage): stage is OpenStage => !isClosedStage(stage)
export const isVotingStage = (stage: Stage): boolean => (VOTING_STAGES as readonly Stage[]).includes(stage)
