import type { ActivityTables } from "./features/activity/activity.tables";
import type { AdminTables } from "./features/admin/admin.tables";
import type { AnalyticsTables } from "./features/analytics/analytics.tables";
import type { ApplicationsTables } from "./features/applications/applications.tables";
import type { BlogTables } from "./features/blog/blog.tables";
import type { EventBadgesTables } from "./features/event-badges/event-badges.tables";
import type { LegacyImportTables } from "./features/legacy-import/legacy-import.tables";
import type { MerchTables } from "./features/merch/merch.tables";
import type { NewsletterTables } from "./features/newsletter/newsletter.tables";
import type { PeopleTables } from "./features/people/people.tables";
import type { PaymentCodesTables } from "./features/payment-codes/payment-codes.tables";
import type { ReceivedPaymentsTables } from "./features/received-payments/received-payments.tables";
import type { StkPushTables } from "./features/stk-push/stk-push.tables";
import type { TeamBadgesTables } from "./features/team-badges/team-badges.tables";
import type { InfraTables } from "./lib/db/infra.tables";

/**
 * The whole database, as Kysely sees it: each domain declares its own tables beside its data
 * functions (`<domain>.tables.ts`), and this lists them, as routes.ts lists every URL. Types
 * only; the schema itself is made by db/migrations.
 */
export interface DB
  extends ActivityTables,
    AdminTables,
    AnalyticsTables,
    ApplicationsTables,
    BlogTables,
    EventBadgesTables,
    LegacyImportTables,
    MerchTables,
    NewsletterTables,
    PaymentCodesTables,
    PeopleTables,
    ReceivedPaymentsTables,
    StkPushTables,
    TeamBadgesTables,
    InfraTables {}
