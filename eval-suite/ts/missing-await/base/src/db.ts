export interface Db {
  update(table: string, id: string, fields: Record<string, unknown>): Promise<void>;
}
