// Added to FerretDB v1.24.2's SQLite backend by the Feedback Intelligence embedded build
// (cli/src/embedded/ferretdb.ts, which documents why). An update command's upserts that insert are held in
// the command's batch with its updates (internal/handler/common/fi_update_batch.go): UpdateAll writes the
// documents UpdateAllParams.New marks with an INSERT, in order with the updates and in their transaction,
// failing on a duplicate _id as InsertAll does.

package sqlite

import (
	"context"
	"errors"

	sqlite3 "modernc.org/sqlite"
	sqlite3lib "modernc.org/sqlite/lib"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/fsql"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
)

// prepareNew does for the documents to insert what InsertAll does before writing: it creates the
// collection (a concurrent drop may have removed it) and its kind and element triggers (outside the transaction:
// adding them takes the write lock).
func (c *collection) prepareNew(ctx context.Context, params *backends.UpdateAllParams) error {
	inserts := false
	for _, n := range params.New {
		inserts = inserts || n
	}

	if !inserts {
		return nil
	}

	if _, err := c.r.CollectionCreate(ctx, &metadata.CollectionCreateParams{DBName: c.dbName, Name: c.name}); err != nil {
		return lazyerrors.Error(err)
	}

	_, err := keepKinds(ctx, c.r.DatabaseGetExisting(ctx, c.dbName), c.r.CollectionGet(ctx, c.dbName, c.name))

	return err
}

// insertNew inserts doc in tx when params marks it new; it reports whether it did.
func insertNew(ctx context.Context, tx *fsql.Tx, meta *metadata.Collection, params *backends.UpdateAllParams, i int, doc *types.Document) (bool, error) {
	if i >= len(params.New) || !params.New[i] {
		return false, nil
	}

	if err := recordInserts(ctx, tx, meta.TableName, []*types.Document{doc}); err != nil {
		return true, lazyerrors.Error(err)
	}

	q, args, err := prepareInsertStatement(meta.TableName, meta.Capped(), []*types.Document{doc})
	if err != nil {
		return true, lazyerrors.Error(err)
	}

	if _, err = tx.ExecContext(ctx, q, args...); err != nil {
		var se *sqlite3.Error
		if errors.As(err, &se) && se.Code() == sqlite3lib.SQLITE_CONSTRAINT_UNIQUE {
			return true, backends.NewError(backends.ErrorCodeInsertDuplicateID, err)
		}

		return true, lazyerrors.Error(err)
	}

	return true, nil
}
