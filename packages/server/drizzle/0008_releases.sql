CREATE TABLE "release_files" (
	"release_id" integer NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	CONSTRAINT "release_files_release_id_name_pk" PRIMARY KEY("release_id","name"),
	CONSTRAINT "release_files_size_ck" CHECK ("release_files"."size" = octet_length("release_files"."bytes"))
);
--> statement-breakpoint
CREATE TABLE "release_mailings" (
	"release_id" integer PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"recipients" integer NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"delivery" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "releases" (
	"id" serial PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"status" text DEFAULT 'building' NOT NULL,
	"cause" text NOT NULL,
	"cursor" bigint NOT NULL,
	"previous_cursor" bigint NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"error" text,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	CONSTRAINT "releases_status_ck" CHECK ("releases"."status" in ('building', 'published', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "release_files" ADD CONSTRAINT "release_files_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_mailings" ADD CONSTRAINT "release_mailings_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "releases_version_uq" ON "releases" USING btree ("version");