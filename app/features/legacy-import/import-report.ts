/** The old-site import's report, as the CLI prints it and staff read it at /admin/imports. */

/** One record the import would not take: the line it starts on, why, and the line as written (when it could not be read). */
export type Refusal = { line: number; reason: string; raw?: string };

/** A value the import shortened or left out: where, what, and its full text (kept here). */
export type Cut = { line: number; what: string; full: string };

/** What happened to one file of the old site. */
export type FileReport = {
  /** The file, relative to the old site's public/ folder. */
  file: string;
  /** What its records are ('posts', 'badge orders', …). */
  records: string;
  added: number;
  /** Already here (a second import skips everything it took the first time). */
  skipped: number;
  refused: Refusal[];
  /** Records imported but sent to staff to look at (orders as pending, 'NEEDS REVIEW' in their notes). */
  review: Refusal[];
  /** Values shortened or left out, each with its full text. */
  cut: Cut[];
  /** What staff should know: flags, changed prices, cleaned HTML, values left out. */
  notes: string[];
  /** The file is not in the folder (nothing to import). */
  missing: boolean;
};

/** One import of the old site as staff read it at /admin/imports. */
export type ImportRun = { id: string; startedAt: string; folder: string; added: number; refused: number; files: FileReport[] };
