CREATE TABLE "release_file_chunks" (
	"release_id" integer NOT NULL,
	"name" text NOT NULL,
	"seq" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "release_file_chunks_release_id_name_seq_pk" PRIMARY KEY("release_id","name","seq"),
	CONSTRAINT "release_file_chunks_seq_ck" CHECK ("release_file_chunks"."seq" >= 0)
);
--> statement-breakpoint
ALTER TABLE "release_files" DROP CONSTRAINT "release_files_size_ck";--> statement-breakpoint
ALTER TABLE "release_file_chunks" ADD CONSTRAINT "release_file_chunks_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_files" DROP COLUMN "bytes";