import { deploymentTable, type RowsOf } from '../../db/table.ts'

/** Settings of the deployment kept in the database (the bootstrap marker, the push keys). */
export interface AppSettingsTable {
  key: string
  value: string
}

/** The ops domain's tables (db/table.ts). */
export const opsTables = {
  app_settings: deploymentTable<AppSettingsTable>({ why: 'one value for the whole deployment' }),
}
export type OpsTables = RowsOf<typeof opsTables>
