/** Post series: the shape the old site's series.json and /api/series.php keep, and their rules. */

/** One series as GET /api/series.php and /data/series.json give it (the old site's shape). */
export type BlogSeries = {
  seriesId: string;
  title: string;
  image: string;
  summary?: string;
  createdAt?: string;
};

/** Series ids go into addresses (/blogs/series/abs0001): letters, digits, dashes and underscores. */
export const SERIES_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export const seriesPath = (id: string) => `/blogs/series/${encodeURIComponent(id)}`;

/** What a post's page says of its series: its title and where the post stands in it. */
export type PostSeriesView = { seriesId: string; title: string; part: number; of: number };
