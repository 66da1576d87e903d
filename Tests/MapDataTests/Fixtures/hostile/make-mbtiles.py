#!/usr/bin/env python3
"""Writes the hostile MBTiles fixtures beside this script (run once; the files are committed).

- format-title.mbtiles: metadata `format` (and `name`) hold ESC ] 0 ; fmt BEL, the sequence
  that sets a terminal's title.
- schema-title.mbtiles: the `metadata` table's CREATE TABLE text holds the same sequence, so
  SQLite's own "malformed database schema" message quotes it.
- recursive-view.mbtiles: `metadata` is a recursive view with no end.
"""
import os
import sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
TITLE = "\x1b]0;fmt\x07"
TABLES = """
CREATE TABLE metadata (name text, value text);
CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
"""


def make(name, script, schema_sql=None):
    path = os.path.join(HERE, name)
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript(script)
    if schema_sql is not None:
        db.execute("PRAGMA writable_schema = ON")
        db.execute("UPDATE sqlite_master SET sql = ? WHERE name = 'metadata'", (schema_sql,))
    db.commit()
    db.close()


make("format-title.mbtiles", TABLES)
db = sqlite3.connect(os.path.join(HERE, "format-title.mbtiles"))
db.executemany("INSERT INTO metadata VALUES (?, ?)", [("format", TITLE), ("name", "n" + TITLE)])
db.commit()
db.close()
make(
    "schema-title.mbtiles", TABLES,
    'CREATE TABLE metadata (name text, value text, x "' + TITLE)
make("recursive-view.mbtiles", """
CREATE VIEW metadata AS WITH RECURSIVE r(name, value) AS
  (SELECT 'format', 'pbf' UNION ALL SELECT name, value FROM r) SELECT name, value FROM r;
CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
""")
