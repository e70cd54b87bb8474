// Added to FerretDB v1.24.2's handler by the Feedback Intelligence embedded build (cli/src/embedded/ferretdb.ts).
// FerretDB wrote each document an update modified, or an upsert inserted, in a transaction of its own: an
// updateMany of 500 documents, or an update command of 500 statements, committed 500 times. The documents
// an update command modifies or inserts are now written in transactions of up to updateBatch documents, in
// the order the statements wrote them (the SQLite backend's UpdateAll inserts those marked New):
//   - a statement's read first writes what the command holds, unless the statement names one _id that it
//     does not hold (then nothing held can match), so every statement reads what the earlier ones wrote;
//   - the command answers only once everything is written; what was modified before an error is written
//     too, as before: a batch that fails to write (a unique index) is written one document at a time up to
//     the failing one.

package common

import (
	"context"
	"fmt"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
)

// updateBatch is how many modified documents are written in one transaction.
const updateBatch = 100

// UpdateBatch holds the documents an update command modified and has not written yet.
type UpdateBatch struct {
	c    backends.Collection
	docs []*types.Document
	news []bool // news[i]: docs[i] is an upsert's new document
	ids  map[string]bool
}

type updateBatchKey struct{}

// WithUpdateBatch gives the update command run with the returned context a batch; Flush it before answering.
func WithUpdateBatch(ctx context.Context) (context.Context, *UpdateBatch) {
	b := &UpdateBatch{ids: map[string]bool{}}
	return context.WithValue(ctx, updateBatchKey{}, b), b
}

// idKey is a key for an _id that is a string or an ObjectID, else "".
func idKey(id any) string {
	switch id.(type) {
	case string, types.ObjectID:
		return fmt.Sprintf("%T:%v", id, id)
	default:
		return ""
	}
}

// FlushBefore writes what the command holds before a statement reads with filter, unless the filter names
// one _id (a string or an ObjectID) that the batch does not hold.
func FlushBefore(ctx context.Context, filter *types.Document) error {
	b, _ := ctx.Value(updateBatchKey{}).(*UpdateBatch)
	if b == nil || len(b.docs) == 0 {
		return nil
	}

	named := 0

	for _, k := range filter.Keys() {
		if k == "_id" {
			named++
		}
	}

	if named == 1 {
		if key := idKey(field(filter, "_id")); key != "" && !b.ids[key] {
			return nil
		}
	}

	return b.Flush(ctx)
}

// field is the document's value of key, nil when it has none.
func field(doc *types.Document, key string) any {
	v, _ := doc.Get(key)
	return v
}

// Flush writes the documents held in one transaction. When that fails (a unique index, say), they are
// written one at a time, in order, up to the one that fails, as FerretDB wrote them.
func (b *UpdateBatch) Flush(ctx context.Context) error {
	if len(b.docs) == 0 {
		return nil
	}

	docs, news := b.docs, b.news
	b.docs, b.news, b.ids = nil, nil, map[string]bool{}

	if _, err := b.c.UpdateAll(ctx, &backends.UpdateAllParams{Docs: docs, New: news}); err == nil || len(docs) == 1 {
		return err
	}

	for i, doc := range docs {
		if _, err := b.c.UpdateAll(ctx, &backends.UpdateAllParams{Docs: []*types.Document{doc}, New: news[i : i+1]}); err != nil {
			return err
		}
	}

	return nil
}

// batchedCollection hands the documents of UpdateAll and of an upsert's InsertAll to the batch.
type batchedCollection struct {
	backends.Collection
	b *UpdateBatch
}

func (c *batchedCollection) UpdateAll(ctx context.Context, params *backends.UpdateAllParams) (*backends.UpdateAllResult, error) {
	if err := c.hold(ctx, params.Docs, false); err != nil {
		return nil, err
	}

	return &backends.UpdateAllResult{Updated: int32(len(params.Docs))}, nil
}

// InsertAll holds an upsert's new document: a duplicate _id fails when the batch is written, and the
// command fails then, with what the statements before it wrote written and nothing after, as before.
func (c *batchedCollection) InsertAll(ctx context.Context, params *backends.InsertAllParams) (*backends.InsertAllResult, error) {
	if err := c.hold(ctx, params.Docs, true); err != nil {
		return nil, err
	}

	return new(backends.InsertAllResult), nil
}

func (c *batchedCollection) hold(ctx context.Context, docs []*types.Document, isNew bool) error {
	b := c.b
	b.c = c.Collection // one command, one collection

	for _, doc := range docs {
		key := idKey(field(doc, "_id"))
		if key == "" || b.ids[key] { // an _id without a key, or held twice: written before it is held again
			if err := b.Flush(ctx); err != nil {
				return err
			}
		}

		b.docs, b.news = append(b.docs, doc), append(b.news, isNew)
		if key != "" {
			b.ids[key] = true
		}
	}

	if len(b.docs) < updateBatch {
		return nil
	}

	return b.Flush(ctx)
}

// UpdateDocument is FerretDB's, with the documents it modifies or inserts written through the command's batch (or a
// batch of its own, written before it returns).
func UpdateDocument(ctx context.Context, c backends.Collection, cmd string, iter types.DocumentsIterator, param *Update) (*UpdateResult, error) { //nolint:lll // for readability
	b, _ := ctx.Value(updateBatchKey{}).(*UpdateBatch)
	own := b == nil

	if own {
		b = &UpdateBatch{ids: map[string]bool{}}
	}

	res, err := updateDocuments(ctx, &batchedCollection{Collection: c, b: b}, cmd, iter, param)
	if !own {
		return res, err
	}

	if ferr := b.Flush(ctx); ferr != nil && err == nil {
		return nil, lazyerrors.Error(ferr)
	}

	return res, err
}
