export * from './common.ts'
export * from './users.ts'
export * from './auth.ts'
export * from './speaking.ts'
