/** An activity log entry as the staff screens show it. */
export type ActivityItem = {
  ts: string;
  type: string;
  message: string;
  meta: Record<string, unknown>;
  actorIp: string;
};
