// Added to FerretDB v1.24.2's handler by the Feedback Intelligence embedded build (cli/src/embedded/ferretdb.ts).
// An update, findAndModify or delete reads the documents it matches, then changes them in Go and writes them
// back whole (or deletes them by _id), without isolation from another command doing the same: two $inc of one
// document at once kept one of them, two updates conditional on one value both applied, a write of one field
// put back another field that a concurrent write had just changed, and a delete conditional on a value could
// delete a document just changed. MongoDB applies each document's write atomically. These commands now run
// one at a time per collection, from their read to their last write, so that holds here too. Reads and
// inserts do not wait: an insert of an existing _id fails on the unique index either way.

package handler

import (
	"context"
	"sync"
)

// writeLocks holds one lock per "database.collection": a channel of one, so that a command whose client has
// gone (its connection's context done) stops waiting.
var writeLocks sync.Map

// lockCollection waits until no other update, findAndModify or delete of the collection runs; the returned
// function gives the lock back, once however often it is called (deferred too, so that a panic gives it back).
func lockCollection(ctx context.Context, db, collection string) (func(), error) {
	v, _ := writeLocks.LoadOrStore(db+"."+collection, make(chan struct{}, 1))
	lock := v.(chan struct{})

	select {
	case lock <- struct{}{}:
		return sync.OnceFunc(func() { <-lock }), nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}
