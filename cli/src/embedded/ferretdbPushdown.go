// Added to FerretDB v1.24.2's SQLite backend by the Feedback Intelligence embedded build
// (cli/src/embedded/ferretdb.ts, which documents why). Without it every query except one by _id reads the
// whole collection and FerretDB filters and sorts it in Go.
//
// Query pushes down a WHERE clause for the parts of the filter it can translate, and, when the WHERE selects
// exactly the filter's matches, the sort and skip+limit as ORDER BY and LIMIT. FerretDB still applies the
// whole filter, sort, skip and limit to the rows read, so a WHERE that selects more than the matches only
// costs time; one that left a match out, or a LIMIT over a WHERE that is not exact, would lose documents.
//
// MongoDB's comparisons are type-bracketed (a string never equals an ObjectId; an array matches by its
// elements; null matches a missing field), while SQL compares the JSON text of a value. So the kinds table
// records which sjson types ("kinds") each top-level field of a table has ever held, and a predicate is
// pushed only when the field's kinds make the SQL comparison select every match (and it is exact when it
// selects nothing else). An inserted document's kinds are recorded in Go, in the insert's transaction
// (recordKinds); an updated one's by the table's update trigger, whose presence also says that the kinds
// are complete (keepKinds). An array's elements are recorded too, as "[]" and their kind ("[]string"): a
// string equality on a field whose arrays held only strings is exact (see element). An indexed array
// field's string elements are kept in a table beside it (fi_elements.go).
//
// FERRETDB_SQLITE_PUSHDOWN=off turns all of it off (tests compare both).

package sqlite

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/handler/sjson"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/fsql"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

var pushdownOff = os.Getenv("FERRETDB_SQLITE_PUSHDOWN") == "off"

// kindsTable holds (table, field, kind) for every top-level field a table's documents have held, and
// (table, field, "[]" + kind) for the elements of its arrays.
// A date whose milliseconds are not 13 digits (before 2001-09-09) is recorded as "date?": its JSON text
// does not sort like its value.
const kindsTable = "_ferretdb_kinds"

// maxBranches bounds the index reads a sorted query is split into (one per combination of $in values).
const maxBranches = 32

// maxArgs keeps a statement under SQLite's bound on its arguments (SQLITE_MAX_VARIABLE_NUMBER, 32,766),
// with room for the LIMIT: a longer $in is read as FerretDB reads it.
const maxArgs = 32000

// plainKey is a field name whose date the kinds check for 13 digits (json_extract's path takes it as is).
var plainKey = regexp.MustCompile(`^[A-Za-z0-9_]*$`)

// kindsTrigger suffixes the name of a table's update trigger. A table whose trigger has another name (a build
// that did not record the kinds of array elements, nor keep elements) has its kinds and elements recorded
// anew from its documents, once.
const kindsTrigger = "_kinds_m"

// oldKindsTriggers are the triggers of earlier builds: the update trigger without element kinds, and the
// insert trigger of the build that recorded inserts by a trigger too.
var oldKindsTriggers = []string{"_kinds_u", "_kinds_i"}

// maxKindRows bounds the rows of one insert into the kinds table (3 arguments each, under maxArgs).
const maxKindRows = 1000

// pushableField is a top-level field name as the indexes write it (`_ferretdb_sjson->"name"`).
var pushableField = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// atom is one SQL condition and its arguments; eq names the column of an equality `col = ?`; element is
// the (field, value) of an indexed element equality (fi_elements.go).
type atom struct {
	sql     string
	args    []any
	eq      string
	element *[2]string
}

// conj is one conjunct of the filter: a disjunction of atoms (several for $in).
type conj []atom

// atom joins the conjunct's atoms with OR, the equalities of one column as one IN list: SQLite parses an OR
// chain as a tree as deep as its length and refuses one deeper than 1,000 (a $in of 1,000 ids), while an IN
// list of any length is one node.
func (c conj) atom() atom {
	if len(c) == 1 {
		return c[0]
	}

	type part struct {
		sql  string
		args []any
		col  string
	}

	var parts []*part

	lists := map[string]*part{}

	for _, a := range c {
		if a.eq == "" {
			parts = append(parts, &part{sql: a.sql, args: a.args})
			continue
		}

		if p := lists[a.eq]; p != nil {
			p.args = append(p.args, a.args...)
			continue
		}

		lists[a.eq] = &part{args: append([]any(nil), a.args...), col: a.eq}
		parts = append(parts, lists[a.eq])
	}

	sqls := make([]string, len(parts))
	var args []any

	for i, p := range parts {
		switch {
		case p.col == "":
			sqls[i] = p.sql
		case len(p.args) == 1:
			sqls[i] = p.col + " = ?"
		default:
			sqls[i] = p.col + " IN (" + strings.TrimSuffix(strings.Repeat("?, ", len(p.args)), ", ") + ")"
		}

		args = append(args, p.args...)
	}

	if len(sqls) == 1 {
		return atom{sql: sqls[0], args: args}
	}

	return atom{sql: "(" + strings.Join(sqls, " OR ") + ")", args: args}
}

func and(conjs []conj) atom {
	parts := make([]string, len(conjs))
	var args []any

	for i, c := range conjs {
		a := c.atom()
		parts[i] = a.sql
		args = append(args, a.args...)
	}

	return atom{sql: strings.Join(parts, " AND "), args: args}
}

// translator turns a filter into conjuncts; exact turns false once a part is left out or may select
// documents that do not match.
type translator struct {
	kinds map[string]map[string]bool
	exact bool

	// table and the fields whose elements it keeps (fi_elements.go).
	table    string
	elements []string
}

func column(field string) string {
	return fmt.Sprintf("%s->%q", metadata.DefaultColumn, field)
}

// conjs translates a filter document (an implicit $and).
func (t *translator) conjs(filter *types.Document) []conj {
	var res []conj

	keys, values := filter.Keys(), filter.Values()

	for i, key := range keys {
		switch key {
		case "$comment":
		case "$and", "$or":
			children, ok := values[i].(*types.Array)
			if !ok || children.Len() == 0 {
				t.exact = false
				continue
			}

			var alts conj

			for j := 0; j < children.Len(); j++ {
				child, _ := children.Get(j)

				doc, ok := child.(*types.Document)
				if !ok {
					t.exact = false
					alts = nil

					break
				}

				cs := t.conjs(doc)
				if key == "$and" {
					res = append(res, cs...)
					continue
				}

				if len(cs) == 0 { // a branch that selects everything: so does the $or
					alts = nil
					break
				}

				alts = append(alts, and(cs))
			}

			if key == "$or" && alts != nil {
				a := alts.atom()
				res = append(res, conj{{sql: "(" + a.sql + ")", args: a.args}})
			}
		default:
			if c := t.field(key, values[i]); c != nil {
				res = append(res, c...)
			}
		}
	}

	return res
}

// field translates one field's condition: a value (equality) or a document of operators.
func (t *translator) field(name string, v any) []conj {
	kinds := t.kinds[name]
	if strings.HasPrefix(name, "$") || !pushableField.MatchString(name) {
		t.exact = false
		return nil
	}

	if kinds["array"] {
		// On a field that has held arrays only a string equality is pushed: as its kept elements, or else
		// as json_each over each row.
		s, ok := stringEquality(v)
		if !ok {
			t.exact = false
			return nil
		}

		if c := t.indexedElement(name, kinds, s); c != nil {
			return []conj{c}
		}

		return []conj{t.element(name, kinds, s)}
	}

	ops, ok := v.(*types.Document)
	if !ok || ops.Len() == 0 || !strings.HasPrefix(ops.Keys()[0], "$") {
		if c := t.equal(name, kinds, v); c != nil {
			return []conj{c}
		}

		return nil
	}

	var res []conj

	keys, values := ops.Keys(), ops.Values()

	for i, op := range keys {
		switch op {
		case "$eq":
			if c := t.equal(name, kinds, values[i]); c != nil {
				res = append(res, c)
			}
		case "$in":
			if c := t.in(name, kinds, values[i]); c != nil {
				res = append(res, c)
			}
		case "$gt", "$gte", "$lt", "$lte":
			if a, ok := t.compare(name, kinds, op, values[i]); ok {
				res = append(res, conj{a})
			}
		default:
			t.exact = false
		}
	}

	return res
}

func (t *translator) in(name string, kinds map[string]bool, v any) conj {
	values, ok := v.(*types.Array)
	if !ok || values.Len() == 0 {
		t.exact = false
		return nil
	}

	var res conj

	seen := map[string]bool{} // a value named twice must not be read twice (see branches in pushdownQuery)

	for j := 0; j < values.Len(); j++ {
		c := t.equal(name, kinds, must.NotFail(values.Get(j)))
		if c == nil {
			return nil
		}

		for _, a := range c {
			if key := fmt.Sprint(a.sql, a.args); !seen[key] {
				seen[key] = true
				res = append(res, a)
			}
		}
	}

	return res
}

// equal is the condition of field = v, or nil when it cannot be pushed (no array kind is checked by field).
func (t *translator) equal(name string, kinds map[string]bool, v any) conj {
	col := column(name)

	var collide []string

	switch v.(type) {
	case types.NullType:
		// null matches a missing field (SQL NULL) and a null (JSON null).
		return conj{{sql: col + " IS NULL"}, {sql: col + " = 'null'"}}
	case string:
		collide = []string{"objectId", "binData", "regex"} // also JSON strings
	case types.ObjectID:
		collide = []string{"string", "binData", "regex"}
	case time.Time:
		collide = []string{"int", "long", "double", "timestamp"} // also JSON numbers
	default:
		t.exact = false
		return nil
	}

	for _, k := range collide {
		if kinds[k] {
			t.exact = false // selects more than the matches: still a superset
		}
	}

	return conj{{sql: col + " = ?", args: []any{text(v)}, eq: col}}
}

// stringEquality is the string v or {$eq: string} compares with.
func stringEquality(v any) (string, bool) {
	if ops, ok := v.(*types.Document); ok && ops.Len() == 1 && ops.Keys()[0] == "$eq" {
		v = must.NotFail(ops.Get("$eq"))
	}

	s, ok := v.(string)

	return s, ok
}

// element is the condition of a string equality on a field that has held arrays (a theme's items: an
// array matches when one of its elements equals the value). json_each reads an array's elements, or
// a scalar as itself; it selects every match. It is exact when the field has held only arrays, strings and
// nulls, and its arrays only strings (an empty one records no element): otherwise an ObjectId or an
// embedded document whose text equals the string, or an array nested in one, may be selected too, and
// FerretDB filters the rows read. No index serves it: SQLite evaluates it on the rows the other conditions
// select.
func (t *translator) element(name string, kinds map[string]bool, s string) conj {
	for k := range kinds {
		switch k {
		case "array", "string", "null", "[]string":
		default:
			t.exact = false
		}
	}

	return conj{{sql: fmt.Sprintf("EXISTS (SELECT 1 FROM json_each(%s) WHERE json_each.value = ?)", column(name)), args: []any{s}}}
}

// compare pushes a date or ObjectId range: their JSON texts (13-digit milliseconds, 24 hex digits) sort
// as their values do.
func (t *translator) compare(name string, kinds map[string]bool, op string, v any) (atom, bool) {
	var kind string

	switch v := v.(type) {
	case time.Time:
		if kinds["date?"] || len(text(v)) != 13 {
			t.exact = false
			return atom{}, false
		}

		kind = "date"
	case types.ObjectID:
		kind = "objectId"
	default:
		t.exact = false
		return atom{}, false
	}

	for k := range kinds {
		if k != kind {
			t.exact = false // other kinds' texts may compare true: a superset
		}
	}

	sqlOp := map[string]string{"$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}[op]

	return atom{sql: fmt.Sprintf("%s %s ?", column(name), sqlOp), args: []any{text(v)}}, true
}

func text(v any) string {
	return string(must.NotFail(sjson.MarshalSingleValue(v)))
}

// sortKey is one ORDER BY term.
type sortKey struct {
	col, dir string
}

// orderBy is the ORDER BY of sort when SQL orders as MongoDB does: every key a field whose values are all
// dates (13 digits) or all ObjectIds, or missing (SQL NULL sorts first, as missing does).
func orderBy(sort *types.Document, kinds map[string]map[string]bool) ([]sortKey, bool) {
	res := make([]sortKey, 0, sort.Len())
	keys, values := sort.Keys(), sort.Values()

	for i, key := range keys {
		if !pushableField.MatchString(key) {
			return nil, false
		}

		k := kinds[key]
		if len(k) != 1 || !(k["date"] || k["objectId"]) {
			return nil, false
		}

		dir := ""

		switch values[i] {
		case int64(1), int32(1), float64(1):
		case int64(-1), int32(-1), float64(-1):
			dir = " DESC"
		default:
			return nil, false
		}

		res = append(res, sortKey{col: column(key), dir: dir})
	}

	return res, true
}

// pushdownQuery builds the query of Query and reports true, or reports false to let Query read as FerretDB
// does. Its third result says the query answers one row without fields per match, for a caller that only
// counts (CountOnly) when the WHERE selects exactly the matches.
func pushdownQuery(ctx context.Context, db *fsql.DB, meta *metadata.Collection, params *backends.QueryParams) (string, []any, bool, bool) {
	if pushdownOff || meta.Capped() || params.OnlyRecordIDs || params.Filter.Len() == 0 {
		return "", nil, false, false
	}

	// A filter that names one _id (a string or an ObjectId) is read by that _id alone, as Query reads it
	// without the pushdown (at most one row): the kinds need not be read (each of a bulk write's updates
	// by _id read them).
	if namesIDOnce(params.Filter) {
		switch must.NotFail(params.Filter.Get("_id")).(type) {
		case string, types.ObjectID:
			return "", nil, false, false
		}
	}

	kinds, elements, err := loadKinds(ctx, db, meta)
	if err != nil {
		return "", nil, false, false
	}

	t := translator{kinds: kinds, exact: true, table: meta.TableName, elements: elements}

	conjs := t.conjs(params.Filter)
	if len(conjs) == 0 {
		return "", nil, false, false
	}

	where := and(conjs)
	if len(where.args) > maxArgs {
		return "", nil, false, false
	}

	from := fmt.Sprintf(" FROM %q", meta.TableName)
	sel := prepareSelectClause(meta.TableName, params.Comment, false, false)

	// An indexed element equality reads its documents first, by _id, and sorts those (no branches below).
	rest, joined, joinedWhere, first := elementsFirst(meta.TableName, conjs)
	if first {
		conjs, where = rest, joinedWhere
		sel = strings.TrimSuffix(sel, from) + joined
		from = joined
	}

	if params.CountOnly && t.exact {
		return fmt.Sprintf("SELECT 0 AS %s%s WHERE %s", metadata.RecordIDColumn, from, where.sql), where.args, true, true
	}

	var keys []sortKey

	sorted := params.ExactSort.Len() == 0
	if !sorted {
		keys, sorted = orderBy(params.ExactSort, kinds)
	}

	if !t.exact || !sorted || params.ExactLimit <= 0 {
		return sel + " WHERE " + where.sql, where.args, false, true
	}

	limit := params.ExactLimit

	// A sort after $in: one index read per combination of values, each in index order, merged by SQLite
	// (a compound SELECT ordered by its columns reads each arm in order and stops at the limit).
	branches := [][]atom{nil}

	if len(keys) > 0 && !first {
		for _, c := range conjs {
			next := make([][]atom, 0, len(branches)*len(c))

			for _, b := range branches {
				for _, a := range c {
					next = append(next, append(append([]atom(nil), b...), a))
				}
			}

			branches = next
		}
	}

	order := make([]string, len(keys))
	cols := make([]string, len(keys))
	positions := make([]string, len(keys))

	for i, k := range keys {
		order[i], cols[i], positions[i] = k.col+k.dir, ", "+k.col, fmt.Sprint(i+2, k.dir)
	}

	if len(branches) < 2 || len(branches) > maxBranches {
		if len(keys) == 0 {
			return sel + " WHERE " + where.sql + " LIMIT ?", append(where.args, limit), false, true
		}

		return sel + " WHERE " + where.sql + " ORDER BY " + strings.Join(order, ", ") + " LIMIT ?", append(where.args, limit), false, true
	}

	arms := make([]string, len(branches))
	var args []any

	for i, b := range branches {
		cs := make([]conj, len(b))
		for j, a := range b {
			cs[j] = conj{a}
		}

		w := and(cs)
		arms[i] = fmt.Sprintf("SELECT %s%s FROM %q WHERE %s", metadata.DefaultColumn, strings.Join(cols, ""), meta.TableName, w.sql)
		args = append(args, w.args...)
	}

	compound := strings.Join(arms, " UNION ALL ") + " ORDER BY " + strings.Join(positions, ", ") + " LIMIT ?"
	q := fmt.Sprintf("%s FROM (%s)", strings.TrimSuffix(sel, fmt.Sprintf(" FROM %q", meta.TableName)), compound)

	return q, append(args, limit), false, true
}

// keepKinds adds the table's update trigger, and records the kinds of the documents already stored, when
// the table has none (one transaction: no write falls between); and keeps the elements of the fields the
// collection's indexes name (fi_elements.go), built anew when they are other fields. It returns those
// fields. InsertAll calls it before a table's first documents, so only a table written by a build without
// it (or with an earlier trigger, see kindsTrigger) is read whole, once, on its first query, and a table
// once more after an index names another field.
func keepKinds(ctx context.Context, db *fsql.DB, meta *metadata.Collection) ([]string, error) {
	table, fields := meta.TableName, elementFields(meta)

	var current, old int

	q := "SELECT count(*) FILTER (WHERE name = ?), count(*) FILTER (WHERE name IN (?, ?)) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?"
	if err := db.QueryRowContext(ctx, q, table+kindsTrigger, table+oldKindsTriggers[0], table+oldKindsTriggers[1], table).Scan(&current, &old); err != nil {
		return nil, err
	}

	kindsKept := current == 1 && old == 0
	if kindsKept {
		stored, found, err := storedElementFields(ctx, db, table)
		if err != nil {
			return nil, err
		}

		if found && slices.Equal(stored, fields) {
			return fields, nil
		}
	}

	if pushdownOff {
		// Inserts record their kinds (and elements, once kept) all the same; the kinds are recorded anew from
		// the documents when the pushdown is next on.
		for _, s := range []string{createKindsTable, createElementsTable} {
			if _, err := db.ExecContext(ctx, s); err != nil {
				return nil, err
			}
		}

		return nil, nil
	}

	return fields, addKindTriggers(ctx, db, table, fields, kindsKept)
}

// recordInserts records the kinds of docs' top-level fields (as kindsOf reads them from a stored document)
// and the elements of their kept array fields (fi_elements.go) in tx, the transaction that inserts them. A
// trigger did this, parsing each document's JSON again.
func recordInserts(ctx context.Context, tx *fsql.Tx, table string, docs []*types.Document) error {
	// The kinds first: a write, so the transaction holds the write lock when it reads the kept fields.
	if err := recordKinds(ctx, tx, table, docs); err != nil {
		return err
	}

	return recordElements(ctx, tx, table, docs)
}

// recordKinds records the kinds of docs' top-level fields in tx.
func recordKinds(ctx context.Context, tx *fsql.Tx, table string, docs []*types.Document) error {
	seen := map[[2]string]bool{}

	var rows [][2]string

	for _, doc := range docs {
		keys, values := doc.Keys(), doc.Values()

		for i, key := range keys {
			kind := sjson.GetTypeOfValue(values[i])
			if t, ok := values[i].(time.Time); ok && (!plainKey.MatchString(key) || len(strconv.FormatInt(t.UnixMilli(), 10)) != 13) {
				kind = "date?"
			}

			add := func(row [2]string) {
				if !seen[row] {
					seen[row] = true
					rows = append(rows, row)
				}
			}

			add([2]string{key, kind})

			if a, ok := values[i].(*types.Array); ok {
				for j := 0; j < a.Len(); j++ {
					add([2]string{key, "[]" + sjson.GetTypeOfValue(must.NotFail(a.Get(j)))})
				}
			}
		}
	}

	for len(rows) > 0 {
		chunk := rows[:min(len(rows), maxKindRows)]
		rows = rows[len(chunk):]

		args := make([]any, 0, 3*len(chunk))
		for _, row := range chunk {
			args = append(args, table, row[0], row[1])
		}

		q := fmt.Sprintf("INSERT OR IGNORE INTO %q (tbl, field, kind) VALUES %s", kindsTable, strings.TrimSuffix(strings.Repeat("(?, ?, ?), ", len(chunk)), ", "))
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return err
		}
	}

	return nil
}

// loadKinds reads the table's field kinds, and the fields whose elements it keeps.
func loadKinds(ctx context.Context, db *fsql.DB, meta *metadata.Collection) (map[string]map[string]bool, []string, error) {
	elements, err := keepKinds(ctx, db, meta)
	if err != nil {
		return nil, nil, err
	}

	rows, err := db.QueryContext(ctx, fmt.Sprintf("SELECT field, kind FROM %q WHERE tbl = ?", kindsTable), meta.TableName)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()

	kinds := map[string]map[string]bool{}

	for rows.Next() {
		var field, kind string
		if err := rows.Scan(&field, &kind); err != nil {
			return nil, nil, err
		}

		if kinds[field] == nil {
			kinds[field] = map[string]bool{}
		}

		kinds[field][kind] = true
	}

	return kinds, elements, rows.Err()
}

// kindsOf selects (table, field, kind) of the top-level fields of the documents in doc (a column of from),
// from their schema; a date's digits are counted only for a plain field name (json_extract's path). The
// elements of an array field add (table, field, "[]" + kind).
func kindsOf(table, from, doc string) string {
	tbl := strings.ReplaceAll(table, "'", "''")

	return fmt.Sprintf(
		"SELECT '%s', key, CASE WHEN value->>'t' <> 'date' THEN value->>'t' "+
			"WHEN key GLOB '*[^A-Za-z0-9_]*' OR length(json_extract(%s, '$.\"' || key || '\"')) <> 13 THEN 'date?' "+
			"ELSE 'date' END FROM %sjson_each(%s, '$.\"$s\".p') "+
			"UNION SELECT '%s', f.key, '[]' || (e.value->>'t') FROM %sjson_each(%s, '$.\"$s\".p') AS f, json_each(f.value, '$.i') AS e "+
			"WHERE f.value->>'t' = 'array'",
		tbl, doc, from, doc, tbl, from, doc,
	)
}

var createKindsTable = fmt.Sprintf("CREATE TABLE IF NOT EXISTS %q (tbl TEXT, field TEXT, kind TEXT, PRIMARY KEY (tbl, field, kind)) WITHOUT ROWID", kindsTable)

// addKindTriggers records the table's kinds anew unless kindsKept, and builds the elements of fields anew,
// in one transaction.
func addKindTriggers(ctx context.Context, db *fsql.DB, table string, fields []string, kindsKept bool) error {
	for _, s := range []string{createKindsTable, createElementsTable} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return err
		}
	}

	return db.InTransaction(ctx, func(tx *fsql.Tx) error {
		// A write first: the transaction takes the write lock (waiting for it) before it reads anything.
		// Reading first, it would fail at once when another connection wrote in between (SQLITE_BUSY).
		stmts := []string{fmt.Sprintf("INSERT OR REPLACE INTO %q (tbl, fields) VALUES ('%s', '%s')", elementsTable, strings.ReplaceAll(table, "'", "''"), strings.Join(fields, ","))}

		if !kindsKept {
			// Kinds left by a dropped table of the same name go: this table's are recorded from its documents.
			stmts = append(stmts, fmt.Sprintf("DELETE FROM %q WHERE tbl = '%s'", kindsTable, strings.ReplaceAll(table, "'", "''")))

			for _, suffix := range oldKindsTriggers {
				stmts = append(stmts, fmt.Sprintf("DROP TRIGGER IF EXISTS %q", table+suffix))
			}

			stmts = append(stmts, fmt.Sprintf(
				"CREATE TRIGGER IF NOT EXISTS %q AFTER UPDATE ON %q BEGIN INSERT OR IGNORE INTO %q %s; END",
				table+kindsTrigger, table, kindsTable, kindsOf(table, "", "NEW."+metadata.DefaultColumn),
			))

			from := fmt.Sprintf("%q AS t, ", table)
			stmts = append(stmts, fmt.Sprintf("INSERT OR IGNORE INTO %q %s", kindsTable, kindsOf(table, from, "t."+metadata.DefaultColumn)))
		}

		for _, s := range stmts {
			if _, err := tx.ExecContext(ctx, s); err != nil {
				return err
			}
		}

		return buildElements(ctx, tx, table, fields)
	})
}
