// Added to FerretDB v1.24.2's SQLite backend by the Feedback Intelligence embedded build
// (cli/src/embedded/ferretdb.ts, which documents why).
//
// MongoDB indexes an array field by its elements (a multikey index): `{themeIds: "th_1"}` reads the keys of
// one theme. SQLite indexes an expression per row, so a field's elements cannot be indexed in its table,
// and an equality on them (json_each, see element in fi_pushdown.go) is evaluated on every row the other
// conditions select: for one theme of an organization, all of the organization's items. So the string
// elements of the array fields that the collection's indexes name are kept in a table beside it,
// "<table>_fi_elems" (field, value, id: the document's _id as its JSON text), and such an equality selects
// the documents whose _id it lists for (field, value): it reads one theme's items, through the _id index.
//
// The elements of inserted documents are recorded in Go, in the insert's transaction (recordElements); an
// update's and a delete's by the table's triggers, which skip documents without arrays. The fields kept
// are recorded in elementsTable, and the table, its triggers and its rows are built again from the
// documents whenever the collection's indexes name other fields (keepKinds). Only strings are kept: a string
// equals no element of another type, so the documents listed are exactly those whose array holds the
// string (a field that has also held scalar strings is read as before).

package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/fsql"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// elementsTable holds, per table, the fields whose elements its "_fi_elems" table keeps (comma-separated).
const elementsTable = "_ferretdb_elements"

var createElementsTable = fmt.Sprintf("CREATE TABLE IF NOT EXISTS %q (tbl TEXT PRIMARY KEY, fields TEXT) WITHOUT ROWID", elementsTable)

// elemsOf names the table keeping the elements of table's indexed array fields.
func elemsOf(table string) string {
	return table + "_fi_elems"
}

// elementFields are the top-level fields the collection's indexes name, except _id, in order.
func elementFields(meta *metadata.Collection) []string {
	var fields []string

	for _, index := range meta.Settings.Indexes {
		for _, key := range index.Key {
			if key.Field != "_id" && pushableField.MatchString(key.Field) && !slices.Contains(fields, key.Field) {
				fields = append(fields, key.Field)
			}
		}
	}

	slices.Sort(fields)

	return fields
}

// storedElementFields reads the fields table's elements are kept for; found is false before they are built.
func storedElementFields(ctx context.Context, q interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}, table string,
) (fields []string, found bool, err error) {
	var joined string

	err = q.QueryRowContext(ctx, fmt.Sprintf("SELECT fields FROM %q WHERE tbl = ?", elementsTable), table).Scan(&joined)

	switch {
	case err == nil:
	case errors.Is(err, sql.ErrNoRows):
		return nil, false, nil
	default:
		return nil, false, err
	}

	if joined == "" {
		return nil, true, nil
	}

	return strings.Split(joined, ","), true, nil
}

// elementsOf selects (field, value, id) of the string elements of the array fields among fields of the
// documents in doc (a column of from, as in kindsOf); the element's type is read from the schema.
func elementsOf(fields []string, from, doc string) string {
	arms := make([]string, len(fields))

	for i, f := range fields {
		arms[i] = fmt.Sprintf(
			"SELECT '%s', j.value, %s->\"_id\" FROM %sjson_each(%s->'%s') AS j "+
				"WHERE json_extract(%s, '$.\"$s\".p.%s.t') = 'array' AND json_extract(%s, '$.\"$s\".p.%s.i[' || j.key || '].t') = 'string'",
			f, doc, from, doc, f, doc, f, doc, f,
		)
	}

	return strings.Join(arms, " UNION ALL ")
}

// hasArray is a condition true when the document in doc has an array among its fields (its schema says so).
func hasArray(doc string) string {
	return fmt.Sprintf(`instr(%s, '{"t":"array"') > 0`, doc)
}

// buildElements (in tx, the transaction that records the table's kinds, its first statement a write) records
// fields as the table's kept fields, and builds their elements table, its rows and its triggers anew.
func buildElements(ctx context.Context, tx *fsql.Tx, table string, fields []string) error {
	elems := elemsOf(table)

	stmts := []string{
		fmt.Sprintf("DROP TRIGGER IF EXISTS %q", elems+"_u"),
		fmt.Sprintf("DROP TRIGGER IF EXISTS %q", elems+"_d"),
		fmt.Sprintf("DROP TABLE IF EXISTS %q", elems),
	}

	if len(fields) > 0 {
		// No declared types: a column without affinity compares with _ferretdb_sjson->"_id" as the _id index
		// does, so that index serves the lookups (with TEXT, SQLite scanned the table instead).
		stmts = append(stmts,
			fmt.Sprintf("CREATE TABLE %q (field, value, id, PRIMARY KEY (field, value, id)) WITHOUT ROWID", elems),
			fmt.Sprintf("CREATE INDEX %q ON %q (id)", elems+"_id", elems),
			fmt.Sprintf("INSERT OR IGNORE INTO %q %s", elems, elementsOf(fields, fmt.Sprintf("%q AS t, ", table), "t."+metadata.DefaultColumn)),
			fmt.Sprintf(
				"CREATE TRIGGER %q AFTER UPDATE ON %q WHEN %s OR %s BEGIN DELETE FROM %q WHERE id = OLD.%s->\"_id\"; INSERT OR IGNORE INTO %q %s; END",
				elems+"_u", table, hasArray("OLD."+metadata.DefaultColumn), hasArray("NEW."+metadata.DefaultColumn),
				elems, metadata.DefaultColumn, elems, elementsOf(fields, "", "NEW."+metadata.DefaultColumn),
			),
			fmt.Sprintf(
				"CREATE TRIGGER %q AFTER DELETE ON %q WHEN %s BEGIN DELETE FROM %q WHERE id = OLD.%s->\"_id\"; END",
				elems+"_d", table, hasArray("OLD."+metadata.DefaultColumn), elems, metadata.DefaultColumn,
			),
		)
	}

	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s); err != nil {
			return err
		}
	}

	return nil
}

// recordElements records the string elements of docs' kept array fields in tx, the transaction that
// inserts them, after its first write (so the kept fields read are those no other writer changes).
func recordElements(ctx context.Context, tx *fsql.Tx, table string, docs []*types.Document) error {
	fields, _, err := storedElementFields(ctx, tx, table)
	if err != nil || len(fields) == 0 {
		return err
	}

	var args []any

	flush := func() error {
		if len(args) == 0 {
			return nil
		}

		q := fmt.Sprintf("INSERT OR IGNORE INTO %q (field, value, id) VALUES %s", elemsOf(table), strings.TrimSuffix(strings.Repeat("(?, ?, ?), ", len(args)/3), ", "))
		_, err := tx.ExecContext(ctx, q, args...)
		args = args[:0]

		return err
	}

	for _, doc := range docs {
		for _, field := range fields {
			v, _ := doc.Get(field)

			a, ok := v.(*types.Array)
			if !ok {
				continue
			}

			id := text(must.NotFail(doc.Get("_id")))

			for j := 0; j < a.Len(); j++ {
				if s, ok := must.NotFail(a.Get(j)).(string); ok {
					args = append(args, field, s, id)
				}

				if len(args) >= 3*maxKindRows {
					if err := flush(); err != nil {
						return err
					}
				}
			}
		}
	}

	return flush()
}

// indexedElement is the condition of field = s on a kept array field, or nil: the documents whose
// _id the elements table lists for it. It is exact when the field has held only arrays and nulls (a scalar
// string is not kept), and marked so that a query can read the elements first (see pushdownQuery).
func (t *translator) indexedElement(name string, kinds map[string]bool, s string) conj {
	if !slices.Contains(t.elements, name) {
		return nil
	}

	for k := range kinds {
		if k != "array" && k != "null" && !strings.HasPrefix(k, "[]") {
			return nil
		}
	}

	sql := fmt.Sprintf("%s->\"_id\" IN (SELECT id FROM %q WHERE field = ? AND value = ?)", metadata.DefaultColumn, elemsOf(t.table))

	return conj{{sql: sql, args: []any{name, s}, element: &[2]string{name, s}}}
}

// elementsFirst removes from conjs a top-level indexed element equality and returns the FROM clause that
// reads its elements first and each of their documents by _id, with the WHERE of its (field, value), or
// ok false when there is none. Without statistics SQLite would rather walk another index of the table
// (an organization's items) and test each row's _id against the list.
func elementsFirst(table string, conjs []conj) (rest []conj, from string, where atom, ok bool) {
	for i, c := range conjs {
		if len(c) != 1 || c[0].element == nil {
			continue
		}

		rest = append(append(rest, conjs[:i]...), conjs[i+1:]...)
		from = fmt.Sprintf(" FROM %q AS fi_e CROSS JOIN %q ON %s->\"_id\" = fi_e.id", elemsOf(table), table, metadata.DefaultColumn)
		where = atom{sql: "fi_e.field = ? AND fi_e.value = ?", args: []any{c[0].element[0], c[0].element[1]}}

		if len(rest) > 0 {
			w := and(rest)
			where = atom{sql: where.sql + " AND " + w.sql, args: append(where.args, w.args...)}
		}

		return rest, from, where, true
	}

	return conjs, "", atom{}, false
}
