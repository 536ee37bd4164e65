/** A record the old-site import took (or found already here), by file kind and the old site's key. */
export interface LegacyImportsTable {
  kind: string;
  key: string;
  /** What it became here: an order reference, a slug, an id ('' when nothing has one). */
  target: string;
  imported_at: string;
}

export interface LegacyImportTables {
  legacy_imports: LegacyImportsTable;
}
