CREATE TABLE "appraisal_rounds" (
	"id" serial PRIMARY KEY NOT NULL,
	"dataset_id" integer NOT NULL,
	"state" text DEFAULT 'unassigned' NOT NULL,
	"opened_by" integer,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"state_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finalized_at" timestamp with time zone,
	"final_grades" jsonb,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "appraisal_rounds_state_ck" CHECK ("appraisal_rounds"."state" in ('unassigned', 'waiting', 'disputed', 'final'))
);
--> statement-breakpoint
CREATE TABLE "appraisals" (
	"id" serial PRIMARY KEY NOT NULL,
	"round_id" integer NOT NULL,
	"slot" text NOT NULL,
	"assessor_id" integer NOT NULL,
	"assigned_by" integer,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"grades" jsonb,
	"comments" jsonb,
	"submitted_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "appraisals_slot_ck" CHECK ("appraisals"."slot" in ('A', 'B', 'third'))
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_action_ck";--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_role_ck";--> statement-breakpoint
ALTER TABLE "bv_specifications" ADD COLUMN "appraisal_state" text DEFAULT 'final' NOT NULL;--> statement-breakpoint
ALTER TABLE "bv_specifications" ADD COLUMN "grades_final" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "appraisal_rounds" ADD CONSTRAINT "appraisal_rounds_dataset_id_bv_specifications_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."bv_specifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appraisal_rounds" ADD CONSTRAINT "appraisal_rounds_opened_by_users_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appraisals" ADD CONSTRAINT "appraisals_round_id_appraisal_rounds_id_fk" FOREIGN KEY ("round_id") REFERENCES "public"."appraisal_rounds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appraisals" ADD CONSTRAINT "appraisals_assessor_id_users_id_fk" FOREIGN KEY ("assessor_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appraisals" ADD CONSTRAINT "appraisals_assigned_by_users_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appraisal_rounds_dataset_idx" ON "appraisal_rounds" USING btree ("dataset_id");--> statement-breakpoint
CREATE UNIQUE INDEX "appraisal_rounds_open_uq" ON "appraisal_rounds" USING btree ("dataset_id") WHERE "appraisal_rounds"."state" <> 'final';--> statement-breakpoint
CREATE UNIQUE INDEX "appraisals_round_slot_uq" ON "appraisals" USING btree ("round_id","slot");--> statement-breakpoint
CREATE INDEX "appraisals_assessor_idx" ON "appraisals" USING btree ("assessor_id");--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_action_ck" CHECK ("audit_log"."action" in ('create', 'update', 'delete', 'appraisal_opened', 'assessor_assigned', 'appraisal_submitted', 'appraisal_disputed', 'appraisal_final'));--> statement-breakpoint
ALTER TABLE "bv_specifications" ADD CONSTRAINT "bvs_appraisal_state_ck" CHECK ("bv_specifications"."appraisal_state" in ('final', 'in_appraisal'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_ck" CHECK ("users"."role" in ('admin', 'curator', 'assessor'));