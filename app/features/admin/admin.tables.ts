export interface StaffSessionsTable {
  /** SHA-256 (base64url) of the random id in the session cookie. */
  id: string;
  key_fingerprint: string;
  created_at: string;
  expires_at: string;
  actor_ip: string;
}

export interface AdminTables {
  staff_sessions: StaffSessionsTable;
}
