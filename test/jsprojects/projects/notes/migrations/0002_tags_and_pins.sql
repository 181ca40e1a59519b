-- Migration number: 0002 	 tags and pins
ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
CREATE TABLE tags (
	note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
	tag TEXT NOT NULL,
	PRIMARY KEY (note_id, tag)
);
CREATE INDEX tags_by_tag ON tags (tag);
