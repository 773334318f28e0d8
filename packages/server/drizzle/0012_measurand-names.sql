CREATE TABLE "measurand_names" (
	"id" serial PRIMARY KEY NOT NULL,
	"analyte_id" integer NOT NULL,
	"name" text NOT NULL,
	"match_key" text NOT NULL,
	"source" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "measurand_names" ADD CONSTRAINT "measurand_names_analyte_id_analytes_id_fk" FOREIGN KEY ("analyte_id") REFERENCES "public"."analytes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "measurand_names_match_key_uq" ON "measurand_names" USING btree ("match_key");--> statement-breakpoint
CREATE INDEX "measurand_names_analyte_idx" ON "measurand_names" USING btree ("analyte_id");