/** A record the old-site import took (or found already here), by file kind and the old site's key. */
export interface LegacyImportsTable {
  kind: string;
  key: string;
  /** What it became here: an order reference, a slug, an id ('' when nothing has one). */
  target: string;
  imported_at: string;
}

/** One import of the old site and its report (JSON), for /admin/imports. */
export interface LegacyImportRunsTable {
  id: string;
  started_at: string;
  folder: string;
  added: number;
  refused: number;
  report: string;
}

export interface LegacyImportTables {
  legacy_imports: LegacyImportsTable;
  legacy_import_runs: LegacyImportRunsTable;
}
