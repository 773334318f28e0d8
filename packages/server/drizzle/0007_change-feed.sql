CREATE TABLE "change_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"cursor" bigint,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"entity" text NOT NULL,
	"entity_id" integer NOT NULL,
	"action" text NOT NULL,
	"analyte_id" integer,
	"estimate_id" integer,
	"version" integer,
	CONSTRAINT "change_log_entity_ck" CHECK ("change_log"."entity" in ('estimate', 'dataset', 'reference', 'measurand')),
	CONSTRAINT "change_log_action_ck" CHECK ("change_log"."action" in ('created', 'changed', 'withdrawn'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "change_log_cursor_uq" ON "change_log" USING btree ("cursor");--> statement-breakpoint
CREATE INDEX "change_log_analyte_cursor_idx" ON "change_log" USING btree ("analyte_id","cursor");--> statement-breakpoint
CREATE INDEX "change_log_unsealed_idx" ON "change_log" USING btree ("id") WHERE "change_log"."cursor" is null;--> statement-breakpoint
-- The change feed's triggers (issue 30.1, decision 056), written by hand after drizzle-kit's part.
-- Cursors are given at commit: a deferred constraint trigger takes a transaction-scoped advisory
-- lock (held until the commit is visible), then numbers this transaction's rows from a sequence.
-- The next writer to number its rows waits for the lock, so cursor order is commit order.
CREATE SEQUENCE "change_log_cursor_seq" AS bigint;--> statement-breakpoint
CREATE FUNCTION "change_log_seal"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  pending bigint;
  top bigint;
  base bigint;
  sealed_at timestamptz;
BEGIN
  -- The trigger fires once per row at COMMIT; the first firing seals them all, the others return
  -- at once (a bulk write of n rows stays O(n), not O(n^2)).
  IF NEW."id" <= coalesce(nullif(current_setting('bvdb.change_log_sealed_to', true), '')::bigint, 0) THEN
    RETURN NULL;
  END IF;
  -- Rows without a cursor are this transaction's own: every other one was sealed before its commit.
  SELECT count(*), max("id") INTO pending, top FROM "change_log" WHERE "cursor" IS NULL;
  IF pending = 0 THEN
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock(7305812245437166136);
  base := nextval('change_log_cursor_seq');
  sealed_at := clock_timestamp();
  IF pending > 1 THEN
    PERFORM setval('change_log_cursor_seq', base + pending - 1);
  END IF;
  UPDATE "change_log" c SET "cursor" = base + p.rn - 1, "at" = sealed_at
  FROM (SELECT "id", row_number() OVER (ORDER BY "id") AS rn FROM "change_log" WHERE "cursor" IS NULL) p
  WHERE c."id" = p."id";
  PERFORM set_config('bvdb.change_log_sealed_to', top::text, true);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "change_log_seal" AFTER INSERT ON "change_log"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "change_log_seal"();--> statement-breakpoint
-- An estimate's new version: created (first, or shown again after a withdrawal), changed, withdrawn.
CREATE FUNCTION "change_log_estimate_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "change_log" ("entity", "entity_id", "action", "analyte_id", "estimate_id", "version")
  SELECT 'estimate', NEW."estimate_id",
    CASE
      WHEN NEW."withdrawn" THEN 'withdrawn'
      WHEN NEW."version" = 1 OR EXISTS (
        SELECT 1 FROM "estimate_versions" p
        WHERE p."estimate_id" = NEW."estimate_id" AND p."version" = NEW."version" - 1 AND p."withdrawn"
      ) THEN 'created'
      ELSE 'changed'
    END,
    e."analyte_id", NEW."estimate_id", NEW."version"
  FROM "estimates" e WHERE e."id" = NEW."estimate_id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "change_log_estimate_versions" AFTER INSERT ON "estimate_versions"
  FOR EACH ROW EXECUTE FUNCTION "change_log_estimate_version"();--> statement-breakpoint
-- A dataset is news only while published: publishing is "created", unpublishing or deleting a
-- published one "withdrawn"; an edit that changes nothing but the stamps is no change.
CREATE FUNCTION "change_log_dataset"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  act text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NOT NEW."published" THEN RETURN NULL; END IF;
    act := 'created';
  ELSIF TG_OP = 'DELETE' THEN
    IF NOT OLD."published" THEN RETURN NULL; END IF;
    INSERT INTO "change_log" ("entity", "entity_id", "action", "analyte_id")
    VALUES ('dataset', OLD."id", 'withdrawn', OLD."analyte_id");
    RETURN NULL;
  ELSIF OLD."published" AND NEW."published" THEN
    IF (to_jsonb(OLD) - 'updated_at' - 'version') = (to_jsonb(NEW) - 'updated_at' - 'version') THEN
      RETURN NULL;
    END IF;
    act := 'changed';
  ELSIF NEW."published" THEN
    act := 'created';
  ELSIF OLD."published" THEN
    act := 'withdrawn';
  ELSE
    RETURN NULL;
  END IF;
  INSERT INTO "change_log" ("entity", "entity_id", "action", "analyte_id")
  VALUES ('dataset', NEW."id", act, NEW."analyte_id");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "change_log_bv_specifications" AFTER INSERT OR UPDATE OR DELETE ON "bv_specifications"
  FOR EACH ROW EXECUTE FUNCTION "change_log_dataset"();--> statement-breakpoint
-- References and measurands are public from their creation; TG_ARGV[0] names the entity.
CREATE FUNCTION "change_log_record"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rid integer;
  act text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    rid := NEW."id";
    act := 'created';
  ELSIF TG_OP = 'DELETE' THEN
    rid := OLD."id";
    act := 'withdrawn';
  ELSE
    IF (to_jsonb(OLD) - 'updated_at' - 'version') = (to_jsonb(NEW) - 'updated_at' - 'version') THEN
      RETURN NULL;
    END IF;
    rid := NEW."id";
    act := 'changed';
  END IF;
  INSERT INTO "change_log" ("entity", "entity_id", "action", "analyte_id")
  VALUES (TG_ARGV[0], rid, act, CASE WHEN TG_ARGV[0] = 'measurand' THEN rid END);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "change_log_references" AFTER INSERT OR UPDATE OR DELETE ON "references"
  FOR EACH ROW EXECUTE FUNCTION "change_log_record"('reference');--> statement-breakpoint
CREATE TRIGGER "change_log_analytes" AFTER INSERT OR UPDATE OR DELETE ON "analytes"
  FOR EACH ROW EXECUTE FUNCTION "change_log_record"('measurand');
