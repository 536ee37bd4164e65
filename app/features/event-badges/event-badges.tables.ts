export interface EventRecordTable {
  id: number;
  title: string;
  /** YYYY-MM-DD, Nairobi. */
  date: string;
  /** HH:MM, Nairobi; null when not announced. */
  start_time: string | null;
  venue: string;
  /** YYYY-MM-DD, Nairobi; null when not set. */
  sales_open: string | null;
  raise_target: number;
  /** JSON: { t1: 34, ... } */
  tier_goals: string;
  updated_at: string;
}

export interface BadgeOrdersTable {
  id: string;
  tier_key: string;
  tier_name: string;
  amount: number;
  name: string;
  email: string;
  phone: string;
  payment_reference: string;
  hard_copy: number;
  notes: string;
  share_url: string;
  status: "pending" | "approved" | "rejected";
  created_at: string;
  approved_at: string | null;
  rejected_at: string | null;
  /** File names inside DATA_DIR/badge-orders/<id>/, never paths from a client. */
  portrait_file: string | null;
  badge_file: string | null;
  poster_file: string | null;
  asset_token: string;
  delivery_outbox_id: number | null;
  /** Staff's notes, a dated entry per action (rejections, imports): appended, never replaced. */
  staff_note: string;
  /** The note sent to the supporter with the latest rejection (their order page shows it). */
  supporter_note: string;
  /** The supporter wall (opt-in): listed at all, under which name ('' = first name), with the portrait, hidden by staff. */
  wall_opt_in: number;
  wall_name: string;
  wall_portrait: number;
  wall_hidden: number;
  /** The portrait's name in its public address on the wall (never the order id). */
  wall_key: string | null;
  /** When the supporter was let in at the door (set once). */
  checked_in_at: string | null;
  /** The event date this supporter's day-before reminder was queued for (null: not yet). */
  reminder_for: string | null;
  /** A supporter badge staff revoked (Open Badges: the assertion then says revoked, with the reason). */
  badge_revoked_at: string | null;
  badge_revocation_reason: string;
}

export interface EventBadgesTables {
  event_record: EventRecordTable;
  badge_orders: BadgeOrdersTable;
}
