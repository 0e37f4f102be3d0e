/**
 * Every permission name used by the API (docs/api-reference.md §4). Plain data with no
 * schema library, so the web client can import it without bundling TypeBox.
 */
export const PERMISSIONS = [
  'users.manage',
  'callings.manage',
  'wards.manage',
  'speaking.manage',
  'proposals.submit',
  'proposals.view',
  'proposals.manage',
] as const
export type Permission = (typeof PERMISSIONS)[number]

/** The permissions a new stake's first steps need: only someone who holds them all is shown the steps (GET /stake/setup). */
export const SETUP_PERMISSIONS: readonly Permission[] = [
  'wards.manage',
  'callings.manage',
  'users.manage',
  'proposals.submit',
]
