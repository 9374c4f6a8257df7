ALTER TABLE "units" DROP COLUMN "calendar_url";--> statement-breakpoint
ALTER TABLE "units" DROP COLUMN "calendar_synced_at";--> statement-breakpoint
ALTER TABLE "units" DROP COLUMN "calendar_error";