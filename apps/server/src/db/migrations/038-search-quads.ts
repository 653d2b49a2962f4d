// A second index of the search text, for the search's whole-index step: the hashes of the four-character pieces of
// its words (`search_quads`; a word is a run of letters and digits), where the trigram index keeps its
// three-character ones. A fragment the newest orders do not have (part of an order id, of an e-mail address) is
// looked for among every order of the queue, and through the trigram index that read the whole list of each of its
// trigrams: a trigram of digits is in ~1.9 % of the orders (their ids and telephone numbers), "hot" in 12 %, so at
// ten million orders "998888" read 3 lists of ~190,000 entries and "hotasat" 5 lists, 6-7 ms of the index alone and
// 61-67 ms p97.5 at 8 connections on two cores (docs/PERFORMANCE.md, run 34). A four-character piece is about ten
// times rarer than a three-character one, and so are its lists: the same two searches read 0.1 ms of this index at
// a million orders, against 1.7-2.7 ms of trigrams.
//
// Pieces within words only, as pg_trgm's trigrams: pieces across a space, "@" or "." too would double the index (60
// pieces an order against 29; 34 s to build at a million orders against 18 s, 221 MB against 104 MB), and a
// fragment's pieces within its words are pieces within the order's words. Hashed to int4 (hashtext, of the piece's
// bytes): an index of the pieces as text sorted them by the database's collation and took 57 s to build. Two pieces
// with one hash only add a candidate, which the search checks against the text itself. hashtext is PostgreSQL's own
// and could change with a major version: docs/DEPLOY.md says to REINDEX this index after such an upgrade.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE FUNCTION search_quads(t text) RETURNS int4[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT array(SELECT hashtext(substr(w, i, 4))
      FROM regexp_split_to_table(t, '[^[:alnum:]]+') AS w, generate_series(1, length(w) - 3) AS i) $$`.execute(db);
  // A short pending list, as the trigram indexes' (migration 035).
  await sql`CREATE INDEX orders_search_quads_idx ON orders USING gin (search_quads(search_text))
    WITH (gin_pending_list_limit = 256)`.execute(db);
}
