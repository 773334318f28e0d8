CREATE TABLE "menus" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" integer,
	"name" text,
	"level" text NOT NULL,
	"probability" double precision NOT NULL,
	"test_count" integer NOT NULL,
	"lines" jsonb NOT NULL,
	"kept_values" jsonb NOT NULL,
	"kept_at" timestamp with time zone DEFAULT now() NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "menus_test_count_ck" CHECK ("menus"."test_count" between 1 and 1000),
	CONSTRAINT "menus_level_ck" CHECK ("menus"."level" in ('optimal', 'desirable', 'minimum')),
	CONSTRAINT "menus_name_ck" CHECK ("menus"."name" is null or (length("menus"."name") between 1 and 200 and "menus"."owner_id" is not null)),
	CONSTRAINT "menus_id_ck" CHECK (length("menus"."id") >= 22)
);
--> statement-breakpoint
ALTER TABLE "menus" ADD CONSTRAINT "menus_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "menus_owner_idx" ON "menus" USING btree ("owner_id","updated_at");--> statement-breakpoint
CREATE INDEX "menus_link_opened_idx" ON "menus" USING btree ("opened_at") WHERE "menus"."owner_id" is null;