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
CREATE INDEX "measurand_names_analyte_idx" ON "measurand_names" USING btree ("analyte_id");--> statement-breakpoint
-- Written by hand after drizzle-kit's part (decision 083): a measurand's names changed is the
-- measurand changed, in the change log the menu's catalogue and the feeds follow (decision 066).
-- One row per measurand and transaction: a row of this transaction not yet sealed says it already.
CREATE FUNCTION "change_log_measurand_names"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  aid integer;
BEGIN
  aid := CASE WHEN TG_OP = 'DELETE' THEN OLD."analyte_id" ELSE NEW."analyte_id" END;
  IF EXISTS (SELECT 1 FROM "change_log" WHERE "cursor" IS NULL AND "entity" = 'measurand' AND "entity_id" = aid) THEN
    RETURN NULL;
  END IF;
  -- A measurand deleted takes its names with it: its own row ('withdrawn') says so.
  IF NOT EXISTS (SELECT 1 FROM "analytes" WHERE "id" = aid) THEN
    RETURN NULL;
  END IF;
  INSERT INTO "change_log" ("entity", "entity_id", "action", "analyte_id") VALUES ('measurand', aid, 'changed', aid);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "change_log_measurand_names" AFTER INSERT OR UPDATE OR DELETE ON "measurand_names"
  FOR EACH ROW EXECUTE FUNCTION "change_log_measurand_names"();
