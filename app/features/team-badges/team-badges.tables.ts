export interface TeamBadgesTable {
  id: string;
  title: string;
  subtitle: string;
  description: string;
  category: string;
  progress: number;
  earned: number;
  owner_name: string;
  issued_at: string;
  icon: string;
  colour: string;
  image_src: string;
  sort: number;
  /** The holder's email, for the Open Badges assertion's hashed recipient ('' when unknown). */
  holder_email: string;
  revoked_at: string | null;
  revocation_reason: string;
  /** A picture staff uploaded (checked, re-encoded), by its name under team-badges/uploads/; null: drawn. */
  image_file: string | null;
  /** Retired by staff: hidden from /badges; the id stays taken and its record says revoked. */
  retired_at: string | null;
}

export interface TeamBadgesTables {
  team_badges: TeamBadgesTable;
}
