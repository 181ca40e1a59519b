-- The notes themselves.
CREATE TABLE notes (
  id   INTEGER PRIMARY KEY AUTOINCREMENT,
  body TEXT NOT NULL
);
INSERT INTO notes (body) VALUES ('first note');
