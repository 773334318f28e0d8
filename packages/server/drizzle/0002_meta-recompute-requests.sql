CREATE TABLE "meta_recompute_requests" (
	"analyte_id" integer PRIMARY KEY NOT NULL,
	"generation" integer DEFAULT 1 NOT NULL,
	"job_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_by" text,
	"claimed_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "meta_recompute_requests" ADD CONSTRAINT "meta_recompute_requests_analyte_id_analytes_id_fk" FOREIGN KEY ("analyte_id") REFERENCES "public"."analytes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meta_recompute_requests_due_idx" ON "meta_recompute_requests" USING btree ("requested_at");